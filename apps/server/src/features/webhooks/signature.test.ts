import { describe, expect, it } from 'vitest';
import { hasValidSignature, signBody } from './signature';

const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

describe('webhook signatures', () => {
  it('accepts the HMAC of the exact bytes with the app secret', () => {
    expect(hasValidSignature('secret', body, signBody('secret', body))).toBe(true);
    expect(
      hasValidSignature('secret', body, signBody('secret', body).toUpperCase().replace('SHA256', 'sha256')),
    ).toBe(true);
  });

  it('rejects another secret, altered bytes, and malformed or missing headers', () => {
    expect(hasValidSignature('secret', body, signBody('other', body))).toBe(false);
    expect(hasValidSignature('secret', Buffer.from(`${body} `), signBody('secret', body))).toBe(false);
    expect(hasValidSignature('secret', body, 'sha256=abc')).toBe(false);
    expect(hasValidSignature('secret', body, undefined)).toBe(false);
    expect(hasValidSignature('secret', body, signBody('secret', body).replace('sha256=', 'sha1='))).toBe(
      false,
    );
  });
});
