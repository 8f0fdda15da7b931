import { describe, expect, it } from 'vitest';
import { redactSecrets, redactTopLevel } from './call-log';

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

  it('masks top-level secrets only in the fast form, and copies nothing when there are none', () => {
    const body = { to: '1', template: { name: 'x' } };
    expect(redactTopLevel(body)).toBe(body);
    expect(redactTopLevel({ to: '1', access_token: 'EAA1' })).toEqual({ to: '1', access_token: '******' });
  });
});

describe('redactSecrets for every secret the sandbox hands around', () => {
  it('masks codes, exchanged and inspected tokens, and a token in an answer', () => {
    expect(
      redactSecrets({
        code: 'AQcode',
        input_token: 'EAA1',
        fb_exchange_token: 'EAA2',
        result: { access_token: 'EAA3', token_type: 'bearer' },
      }),
    ).toEqual({
      code: '******',
      input_token: '******',
      fb_exchange_token: '******',
      result: { access_token: '******', token_type: 'bearer' },
    });
  });

  it('keeps numeric codes (Graph error codes are numbers, never secrets)', () => {
    expect(redactSecrets({ errors: [{ code: 131026, title: 'undeliverable' }] })).toEqual({
      errors: [{ code: 131026, title: 'undeliverable' }],
    });
    expect(redactTopLevel({ code: 100, to: '1' })).toEqual({ code: 100, to: '1' });
  });
});
