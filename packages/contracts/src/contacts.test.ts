import { describe, expect, it } from 'vitest';
import { ContactListQuerySchema, normalizePhoneNumber, PHONE_NUMBER_MESSAGE } from './contacts';

describe('normalizePhoneNumber', () => {
  it.each([
    ['+14155550123', '+14155550123'],
    ['14155550123', '+14155550123'],
    ['+1 (415) 555-0123', '+14155550123'],
    ['1.415.555.0123', '+14155550123'],
    ['0014155550123', '+14155550123'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+44 7911 123456', '+447911123456'],
    ['447911123456', '+447911123456'],
    ['+91 98765 43210', '+919876543210'],
    ['  +49 151 12345678 ', '+4915112345678'],
  ])('reads %j as %s', (input, e164) => {
    expect(normalizePhoneNumber(input)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['', 'empty'],
    ['abc', 'letters'],
    ['+1415555', 'too short for its country'],
    ['+1415555012345678', 'longer than E.164 allows'],
    ['020 7946 0958', 'a national number: no country code'],
    ['4155550123', 'a US national number read as country code 4'],
    ['+999123456789', 'no such country code'],
    ['+1 415 555 0123 ext 4', 'an extension'],
    ['++14155550123', 'two plus signs'],
  ])('refuses %j (%s)', (input) => {
    expect(normalizePhoneNumber(input)).toEqual({ ok: false, message: PHONE_NUMBER_MESSAGE });
  });
});

describe('ContactListQuerySchema', () => {
  it('defaults to page 1 of 10 and accepts only the spec’s page sizes', () => {
    expect(ContactListQuerySchema.parse({})).toEqual({ page: 1, page_size: 10 });
    expect(ContactListQuerySchema.parse({ page: '3', page_size: '100', search: 'ada' })).toEqual({
      page: 3,
      page_size: 100,
      search: 'ada',
    });
    for (const page_size of ['5', '20', '1000', 'x']) {
      expect(ContactListQuerySchema.safeParse({ page_size }).success).toBe(false);
    }
    for (const page of ['0', '-2', '1.5'])
      expect(ContactListQuerySchema.safeParse({ page }).success).toBe(false);
  });
});
