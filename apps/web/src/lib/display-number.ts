import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** A stored E.164 number as people read it, grouped: '+14155550123' → '+1 415 555 0123'. */
export function displayNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
