import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { isBsuid } from '../messages/bsuid';

/**
 * The sandbox's own copy of Meta's per-message rates (USD, per delivered template message, from 2025-07-01):
 * Meta bills on its side, so the sandbox prices what it delivered itself and never reads Herald's rate card.
 * A few markets only: the ones tests and demos send to, each at the figure of Meta's published USD card; every
 * other country is priced as Meta's "Other" market. Service messages are free here (the sandbox sends
 * templates only).
 */
interface MarketRates {
  marketing: number;
  utility: number;
  authentication: number;
}

const OTHER: MarketRates = { marketing: 0.0604, utility: 0.0077, authentication: 0.0077 };

/** Country (ISO 3166, as Meta reports `country`) → its market's rates; every other country is "Other". */
const BY_COUNTRY: Record<string, MarketRates> = {
  US: { marketing: 0.025, utility: 0.0034, authentication: 0.0034 },
  // Meta's North America market: the United States and Canada share one rate card.
  CA: { marketing: 0.025, utility: 0.0034, authentication: 0.0034 },
  EG: { marketing: 0.0644, utility: 0.0036, authentication: 0.0036 },
  ZA: { marketing: 0.0379, utility: 0.0076, authentication: 0.0076 },
  FR: { marketing: 0.0859, utility: 0.03, authentication: 0.03 },
  ES: { marketing: 0.0615, utility: 0.02, authentication: 0.02 },
  IT: { marketing: 0.0691, utility: 0.03, authentication: 0.03 },
  GB: { marketing: 0.0529, utility: 0.022, authentication: 0.022 },
  DE: { marketing: 0.1365, utility: 0.055, authentication: 0.055 },
  MX: { marketing: 0.0305, utility: 0.0085, authentication: 0.0085 },
  BR: { marketing: 0.0625, utility: 0.0068, authentication: 0.0068 },
  ID: { marketing: 0.0411, utility: 0.025, authentication: 0.025 },
  IN: { marketing: 0.0107, utility: 0.0014, authentication: 0.0014 },
  NG: { marketing: 0.0516, utility: 0.0067, authentication: 0.0067 },
  AE: { marketing: 0.0384, utility: 0.0157, authentication: 0.0157 },
};

/** Calling code → the country Meta reports for it; +1 is shared by the countries of the North American plan. */
const BY_CALLING_CODE: Record<string, string> = {
  '1': 'US',
  '20': 'EG',
  '27': 'ZA',
  '33': 'FR',
  '34': 'ES',
  '39': 'IT',
  '44': 'GB',
  '49': 'DE',
  '52': 'MX',
  '55': 'BR',
  '62': 'ID',
  '91': 'IN',
  '234': 'NG',
  '971': 'AE',
};

/**
 * "ZZ" (ISO's "unknown or unspecified") for a calling code the sandbox does not name: Meta would name the
 * country; the sandbox keeps no full numbering plan beyond +1's.
 */
export const UNKNOWN_COUNTRY = 'ZZ';

export interface Priced {
  country: string;
  /** What Meta charges for the message, in the WABA's currency (USD in the sandbox). */
  cost: number;
}

/**
 * The country a recipient is billed in: a BSUID names it before the dot (`US.1349…`); a number, its calling
 * code. Within +1 the area code says which country of the North American plan (libphonenumber's plan): +1 416
 * is Canada, +1 876 Jamaica; a number the plan does not know (the 555 numbers of tests) stays the US.
 */
function countryOf(recipient: string): string {
  // A plain boolean: isBsuid narrows its argument, which would leave a number's branch typed as never.
  const bsuid: boolean = isBsuid(recipient);
  if (bsuid) return recipient.slice(0, 2);
  const digits = recipient.replace(/\D/g, '');
  const code = [1, 2, 3].map((length) => digits.slice(0, length)).find((c) => BY_CALLING_CODE[c]);
  if (code === undefined) return UNKNOWN_COUNTRY;
  if (code === '1') return parsePhoneNumberFromString(`+${digits}`)?.country ?? 'US';
  return BY_CALLING_CODE[code]!;
}

/** The country and price of one delivered template message. */
export function priceDelivered(recipient: string, category: string): Priced {
  const country = countryOf(recipient);
  const rates = BY_COUNTRY[country] ?? OTHER;
  // marketing_lite (a marketing message sent through the MM API) is charged at the marketing rate.
  const key = category.toLowerCase() === 'marketing_lite' ? 'marketing' : category.toLowerCase();
  const cost = key === 'marketing' || key === 'utility' || key === 'authentication' ? rates[key] : 0;
  return { country, cost };
}
