import type { MessageTemplate } from '../templates/template-store';

/** What Meta adds to a pause, unpause or disable: `other_info {title, description}`. */
export interface StatusOtherInfo {
  title: string;
  description: string;
}

/** Extra parts of one notification; an `event` other than the new status (REINSTATED, FLAGGED). */
export interface StatusNotice {
  event?: string;
  otherInfo?: StatusOtherInfo | null;
}

/** Meta's `message_template_status_update` notification for one template's new status. */
export function templateStatusPayload(
  template: MessageTemplate,
  now = new Date(),
  notice: StatusNotice = {},
) {
  const paused = template.status === 'PAUSED';
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: template.wabaId,
        time: Math.floor(now.getTime() / 1000),
        changes: [
          {
            value: {
              event: notice.event ?? template.status,
              // Meta sends this id as a JSON number; 15-digit ids are exact in a double.
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              // Named in every status notification since 2026 (Meta's reference, Apr 2026).
              message_template_category: template.category,
              // Meta's reference: NONE "indicates template was paused".
              reason: template.status === 'REJECTED' ? template.rejectedReason : paused ? 'NONE' : null,
              ...(template.status === 'DISABLED'
                ? { disable_info: { disable_date: String(Math.floor(now.getTime() / 1000)) } }
                : {}),
              ...(notice.otherInfo ? { other_info: notice.otherInfo } : {}),
            },
            field: 'message_template_status_update',
          },
        ],
      },
    ],
  };
}
