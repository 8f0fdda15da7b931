import { describe, expect, it } from 'vitest';
import { redactSecrets } from './call-log';

describe('redactSecrets', () => {
  it('masks pin, client_secret and access_token at any depth and keeps the rest', () => {
    expect(
      redactSecrets({
        messaging_product: 'whatsapp',
        pin: '123456',
        nested: [{ client_secret: 's', access_token: 'EAA1', keep: 1 }],
      }),
    ).toEqual({
      messaging_product: 'whatsapp',
      pin: '******',
      nested: [{ client_secret: '******', access_token: '******', keep: 1 }],
    });
  });

  it('leaves scalars alone', () => {
    expect(redactSecrets('pin')).toBe('pin');
    expect(redactSecrets(null)).toBeNull();
  });
});
