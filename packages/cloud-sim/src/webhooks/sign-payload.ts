import { createHmac } from 'node:crypto';

/** Meta's `X-Hub-Signature-256` value: HMAC-SHA256 of the raw body bytes, keyed with the app secret. */
export function signPayload(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
