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
    ['', PHONE_NUMBER_MESSAGE],
    ['abc', PHONE_NUMBER_MESSAGE],
    ['+1415555', 'The number is too short for a United States number (+1)'],
    ['+1415555012345678', 'The number is too long: a phone number has at most 15 digits'],
    [
      '020 7946 0958',
      'A number starting with 0 needs its country: write it with its country code, e.g. +44 20 7946 0958',
    ],
    // A US national number read as country code 41 (no country given): its length is wrong for that country.
    ['4155550123', 'The number is too short for a Switzerland number (+41)'],
    ['+999123456789', 'No country uses the calling code +999'],
    ['+442079460', 'This is not a valid United Kingdom number (+44)'],
    ['+1 415 555 0123 ext 4', PHONE_NUMBER_MESSAGE],
    ['++14155550123', PHONE_NUMBER_MESSAGE],
  ])('refuses %j, saying why: %s', (input, message) => {
    expect(normalizePhoneNumber(input)).toEqual({ ok: false, message });
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
