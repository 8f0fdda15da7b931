import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256(app secret, raw body)>`, as Meta signs webhooks in X-Hub-Signature-256. */
export function signBody(appSecret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of the signature header against the raw bytes received. */
export function hasValidSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signBody(appSecret, rawBody));
  const received = Buffer.from(header.toLowerCase());
  return expected.length === received.length && timingSafeEqual(expected, received);
}
