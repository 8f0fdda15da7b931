import { metadata } from '../messages/status-payload';

export interface LinkClick {
  wabaId: string;
  phoneNumberId: string;
  displayDigits: string;
  component: 'cta' | 'body';
  clickId: string;
  trackingToken: string;
  /** Unix seconds of the tap. */
  timestamp: number;
}

/**
 * Meta's `marketing_messages_link_click` (marketing-messages/track-click-events), a `messages` change carrying
 * `user_actions`. As Meta's, it names no person, contact or message: only the business number and the click.
 * `product_id` is left out: Meta adds it only for a product assigned in Ads Manager, which the sandbox has not.
 */
export function linkClickPayload(click: LinkClick) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: click.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: metadata(click),
              user_actions: [
                {
                  action_type: 'marketing_messages_link_click',
                  timestamp: String(click.timestamp),
                  marketing_messages_link_click_data: {
                    click_component: click.component,
                    click_id: click.clickId,
                    tracking_token: click.trackingToken,
                  },
                },
              ],
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}
