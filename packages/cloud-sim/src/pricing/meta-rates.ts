import { isBsuid } from '../messages/bsuid';

/**
 * The sandbox's own copy of Meta's per-message rates (USD, per delivered template message, from 2025-07-01):
 * Meta bills on its side, so the sandbox prices what it delivered itself and never reads Herald's rate card.
 * A few markets only: the ones tests and demos send to, each at the figure of Meta's published USD card; every
 * other calling code is priced as Meta's "Other" market. Service messages are free here (the sandbox sends
 * templates only).
 */
interface MarketRates {
  marketing: number;
  utility: number;
  authentication: number;
}

const OTHER: MarketRates = { marketing: 0.0604, utility: 0.0077, authentication: 0.0077 };

/** Calling code → the country Meta reports (`country`, ISO 3166) and its market's rates. */
const BY_CALLING_CODE: Record<string, { country: string; rates: MarketRates }> = {
  '1': { country: 'US', rates: { marketing: 0.025, utility: 0.0034, authentication: 0.0034 } },
  '20': { country: 'EG', rates: { marketing: 0.0644, utility: 0.0036, authentication: 0.0036 } },
  '27': { country: 'ZA', rates: { marketing: 0.0379, utility: 0.0076, authentication: 0.0076 } },
  '33': { country: 'FR', rates: { marketing: 0.0859, utility: 0.03, authentication: 0.03 } },
  '34': { country: 'ES', rates: { marketing: 0.0615, utility: 0.02, authentication: 0.02 } },
  '39': { country: 'IT', rates: { marketing: 0.0691, utility: 0.03, authentication: 0.03 } },
  '44': { country: 'GB', rates: { marketing: 0.0529, utility: 0.022, authentication: 0.022 } },
  '49': { country: 'DE', rates: { marketing: 0.1365, utility: 0.055, authentication: 0.055 } },
  '52': { country: 'MX', rates: { marketing: 0.0305, utility: 0.0085, authentication: 0.0085 } },
  '55': { country: 'BR', rates: { marketing: 0.0625, utility: 0.0068, authentication: 0.0068 } },
  '62': { country: 'ID', rates: { marketing: 0.0411, utility: 0.025, authentication: 0.025 } },
  '91': { country: 'IN', rates: { marketing: 0.0107, utility: 0.0014, authentication: 0.0014 } },
  '234': { country: 'NG', rates: { marketing: 0.0516, utility: 0.0067, authentication: 0.0067 } },
  '971': { country: 'AE', rates: { marketing: 0.0384, utility: 0.0157, authentication: 0.0157 } },
};

/**
 * "ZZ" (ISO's "unknown or unspecified") for a calling code the sandbox does not name: Meta would name the
 * country; the sandbox keeps no full numbering plan.
 */
export const UNKNOWN_COUNTRY = 'ZZ';

export interface Priced {
  country: string;
  /** What Meta charges for the message, in the WABA's currency (USD in the sandbox). */
  cost: number;
}

function callingCodeEntry(digits: string) {
  for (const length of [1, 2, 3]) {
    const entry = BY_CALLING_CODE[digits.slice(0, length)];
    if (entry) return entry;
  }
  return null;
}

/**
 * The country and price of one delivered template message. A BSUID names its country before the dot
 * (`US.1349…`); its market is then found from that country's calling code.
 */
export function priceDelivered(recipient: string, category: string): Priced {
  const entry = isBsuid(recipient)
    ? (Object.values(BY_CALLING_CODE).find((e) => e.country === recipient.slice(0, 2)) ?? null)
    : callingCodeEntry(recipient);
  const country = entry?.country ?? (isBsuid(recipient) ? recipient.slice(0, 2) : UNKNOWN_COUNTRY);
  const rates = entry?.rates ?? OTHER;
  const key = category.toLowerCase();
  const cost = key === 'marketing' || key === 'utility' || key === 'authentication' ? rates[key] : 0;
  return { country, cost };
}
