import type { TestApp } from '../../../../../test-support/test-app';
import { signBody } from './signature';

/** Posts one signed `messages` change for a WABA, as Meta would, and waits until Herald has applied it. */
export async function postMessagesWebhook(t: TestApp, wabaId: string, value: Record<string, unknown>) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      { id: wabaId, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', ...value } }] },
    ],
  });
  const response = await postSignedWebhook(t, body);
  await t.app.webhooks.idle();
  return response;
}

/** Posts a raw body signed with the app secret, as Meta would, without waiting for it to be applied. */
export function postSignedWebhook(t: TestApp, body: string) {
  return t.app.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signBody(t.config.META_APP_SECRET, body),
    },
    payload: body,
  });
}
