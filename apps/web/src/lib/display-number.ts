import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** A stored E.164 number as people read it, grouped ('+1 415 555 0123'), as the Customers table shows it. */
export function displayNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
