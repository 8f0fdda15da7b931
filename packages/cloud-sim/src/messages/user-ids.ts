import { createHash } from 'node:crypto';
import { getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { CountryCode } from 'libphonenumber-js';
import phoneMetadata from 'libphonenumber-js/metadata.min.json';

/** Saved across restarts: per portfolio, [phone digits, BSUID] pairs a test named (see UserIds.name). */
export type SavedUserIds = Record<string, Array<[string, string]>>;

/** The country prefix of a BSUID: the number's country, else its calling code's main country, else US. */
function countryOf(digits: string): string {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (parsed?.country) return parsed.country;
  const code = parsed?.countryCallingCode;
  const mains = phoneMetadata.country_calling_codes as Record<string, string[] | undefined>;
  const main = code === undefined ? undefined : mains[code]?.[0];
  return main && getCountryCallingCode(main as CountryCode) === code ? main : 'US';
}

/**
 * Every WhatsApp user's business-scoped user id (BSUID), which Meta has put in webhooks since April 2026 beside
 * the phone number: one per user and business portfolio, like `GB.13491208655302741918`. The sandbox derives it
 * from the portfolio and the number, so it is stable across restarts, unless a test named the user's BSUID
 * (an inbound message with both `from` and `user_id`), which then stands for that number.
 */
export class UserIds {
  private readonly named = new Map<string, Map<string, string>>();

  of(portfolioId: string, digits: string): string {
    const given = this.named.get(portfolioId)?.get(digits);
    if (given !== undefined) return given;
    const hash = createHash('sha256').update(`${portfolioId}|${digits}`).digest('hex');
    return `${countryOf(digits)}.${BigInt(`0x${hash.slice(0, 16)}`)
      .toString()
      .padStart(20, '1')}`;
  }

  /** A test said which BSUID this number has in this portfolio. */
  name(portfolioId: string, digits: string, bsuid: string): void {
    let numbers = this.named.get(portfolioId);
    if (!numbers) this.named.set(portfolioId, (numbers = new Map()));
    numbers.set(digits, bsuid);
  }

  /** The user's BSUID changed (`user_changed_user_id`): the number keeps the new one. */
  rename(portfolioId: string, from: string, to: string): void {
    for (const [digits, bsuid] of this.named.get(portfolioId) ?? []) {
      if (bsuid === from) this.name(portfolioId, digits, to);
    }
  }

  clear(): void {
    this.named.clear();
  }

  save(): SavedUserIds {
    return Object.fromEntries([...this.named].map(([portfolio, numbers]) => [portfolio, [...numbers]]));
  }

  restore(saved: SavedUserIds | undefined): void {
    this.named.clear();
    for (const [portfolio, pairs] of Object.entries(saved ?? {})) {
      for (const [digits, bsuid] of pairs) this.name(portfolio, digits, bsuid);
    }
  }
}
