import { createHmac } from 'node:crypto';

/** Meta's `X-Hub-Signature-256` value: HMAC-SHA256 of the raw body bytes, keyed with the app secret. */
export function signPayload(rawBody: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * A webhook body as Meta writes it: JSON whose non-ASCII characters are `\uXXXX` escapes with lowercase hex
 * ('é' is `\u00e9`, an emoji its two surrogate escapes). Meta signs those exact bytes ("we generate the
 * signature using an escaped unicode version of the payload", Meta's webhook docs), so a receiver that parses
 * and re-serialises before checking fails on the first accent: the sandbox sends the same bytes to catch it.
 */
export function webhookBody(payload: unknown): string {
  return JSON.stringify(payload).replace(
    /[\u0080-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
