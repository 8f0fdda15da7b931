import { describe, expect, it } from 'vitest';
import { formatDisplayPhoneNumber, normalisePhoneNumber } from './phone-format';

describe('normalisePhoneNumber', () => {
  it.each([
    ['+1 631-555-5555', '16315555555'],
    ['+44 (7700) 900.123', '447700900123'],
    ['16315555555', '16315555555'],
  ])('%s → %s', (input, digits) => {
    expect(normalisePhoneNumber(input)).toBe(digits);
  });

  it.each(['', 'call me', '+1 555', '0044 7700 900123', '+1234567890123456', '+1 631 555 5555 ext 2'])(
    'rejects %j',
    (input) => {
      expect(normalisePhoneNumber(input)).toBeNull();
    },
  );
});

describe('formatDisplayPhoneNumber', () => {
  it('formats North American numbers exactly like Meta', () => {
    expect(formatDisplayPhoneNumber('16315555555')).toBe('+1 631-555-5555');
  });

  it('separates country code and national number elsewhere', () => {
    expect(formatDisplayPhoneNumber('447700900123')).toBe('+44 7700 900123');
    expect(formatDisplayPhoneNumber('919876543210')).toBe('+91 9876 543210');
    expect(formatDisplayPhoneNumber('35312345678')).toBe('+353 1234 5678');
  });
});
