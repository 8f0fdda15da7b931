import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload } from './sign-payload';

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
