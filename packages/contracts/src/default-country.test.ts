import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COUNTRY_MESSAGE,
  DefaultCountrySchema,
  normalizePhoneNumber,
  phoneNumberCountry,
} from './contacts';

describe('normalizePhoneNumber with a default country (national numbers)', () => {
  it.each([
    ['0151 12340016', 'DE', '+4915112340016'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['(415) 555-0123', 'US', '+14155550123'],
    ['4155550123', 'US', '+14155550123'],
    // A number with its country code is read as written, whatever the default.
    ['+44 7911 123456', 'DE', '+447911123456'],
    ['0044 20 7946 0958', 'DE', '+442079460958'],
    ['14155550123', 'DE', '+14155550123'],
  ] as const)('reads %j in %s as %s', (input, country, e164) => {
    expect(normalizePhoneNumber(input, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    [
      '0151 12340016',
      undefined,
      'A number starting with 0 needs its country: write it with its country code, e.g. +44 20 7946 0958',
    ],
    ['0123', 'GB', 'The number is too short for a United Kingdom number (+44)'],
    ['07911 55512', 'GB', 'This is not a valid United Kingdom number (+44)'],
    ['0151 1234001612345678', 'DE', 'The number is too long: a phone number has at most 15 digits'],
    ['020 7946 0958', 'US', 'The number is too long for a United States number (+1)'],
  ] as const)('refuses %j in %s, saying why', (input, country, message) => {
    expect(normalizePhoneNumber(input, country)).toEqual({ ok: false, message });
  });
});

describe('phoneNumberCountry: the business number’s country', () => {
  it.each([
    ['+49 151 12340016', 'DE'],
    ['+44 20 7946 0958', 'GB'],
    ['+1 631-555-5555', 'US'],
    // The sandbox's numbers are no real line: the calling code's main country.
    ['+1 555 0100', 'US'],
    ['0151 12340016', null],
    ['', null],
  ])('%j → %s', (text, country) => {
    expect(phoneNumberCountry(text)).toBe(country);
  });
});

describe('DefaultCountrySchema', () => {
  it('takes an ISO country code in any case and refuses anything else naming the field', () => {
    expect(DefaultCountrySchema.parse(' de ')).toBe('DE');
    for (const bad of ['', 'XX', 'DEU', 'Germany', '1']) {
      const result = DefaultCountrySchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(DEFAULT_COUNTRY_MESSAGE);
    }
  });
});
