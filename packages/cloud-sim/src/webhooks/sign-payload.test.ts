import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, webhookBody } from './sign-payload';

describe('signPayload', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw body keyed with the app secret', () => {
    const raw = '{"object":"whatsapp_business_account"}';
    expect(signPayload(raw, 'secret')).toBe(
      `sha256=${createHmac('sha256', 'secret').update(raw).digest('hex')}`,
    );
    expect(signPayload(raw, 'secret')).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signPayload(raw, 'other')).not.toBe(signPayload(raw, 'secret'));
  });
});

describe('webhookBody', () => {
  it('escapes non-ASCII as Meta does, lowercase hex, emoji as surrogate pairs, and stays ASCII', () => {
    const body = webhookBody({ text: { body: 'äöå Café 😀 ☕' }, n: 1, ok: 'plain/ascii "q"' });
    expect(body).toBe(
      '{"text":{"body":"\\u00e4\\u00f6\\u00e5 Caf\\u00e9 \\ud83d\\ude00 \\u2615"},"n":1,"ok":"plain/ascii \\"q\\""}',
    );
    expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
  });

  it('parses back to the same value, and differs from the UTF-8 JSON only when there is non-ASCII', () => {
    const value = { name: 'Zoë 🌸', lone: '\ud800', nested: [{ é: 'ü' }] };
    expect(JSON.parse(webhookBody(value))).toEqual(value);
    expect(webhookBody({ a: 'b' })).toBe(JSON.stringify({ a: 'b' }));
    // The signature is over these bytes, so a receiver that re-serialises gets another one.
    expect(signPayload(webhookBody(value), 's')).not.toBe(signPayload(JSON.stringify(value), 's'));
  });
});
