/** Returns the E.164 digits of a phone number typed by a person, or null when it cannot be one. */
export function normalisePhoneNumber(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15 || digits.startsWith('0')) return null;
  return digits;
}

// Two-digit country calling codes; everything else not starting with 1 or 7 is treated as three digits.
const TWO_DIGIT_CODES = new Set(
  (
    '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 ' +
    '81 82 84 86 90 91 92 93 94 95 98'
  ).split(' '),
);

function countryCodeLength(digits: string): number {
  if (digits.startsWith('1') || digits.startsWith('7')) return 1;
  return TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3;
}

/**
 * Meta shows numbers formatted ("+1 631-555-5555") in `display_phone_number` but uses bare digits in
 * webhooks; the sandbox formats North American numbers exactly like Meta and
 * splits the others after the country code and the first four national digits.
 */
export function formatDisplayPhoneNumber(digits: string): string {
  if (digits.length === 11 && digits.startsWith('1')) {
    return `+1 ${digits.slice(1, 4)}-${digits.slice(4, 7)}-${digits.slice(7)}`;
  }
  const ccLength = countryCodeLength(digits);
  const national = digits.slice(ccLength);
  const grouped = national.length > 6 ? `${national.slice(0, 4)} ${national.slice(4)}` : national;
  return `+${digits.slice(0, ccLength)} ${grouped}`;
}
