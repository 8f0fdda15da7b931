import { isBsuidAddress } from '../../contacts';
import {
  marketOfNumber,
  MARKETS,
  DEFAULT_RATE_CARD_FILE,
  loadRateCard,
  RATE_CATEGORIES,
  rateCategory,
  rateOn,
  type RateCard,
  type RateCategory,
} from '../../pricing';

/** Amounts in millionths of a dollar: the card's rates have up to 6 decimals, so sums of them stay exact. */
export const MICROS = 1_000_000;
export const toMicros = (usd: number | string) => Math.round(Number(usd) * MICROS);

/**
 * The categories a template's message could be billed as. An authentication template is billed at the
 * authentication-international rate when Meta deems the business abroad for the recipient, which Herald cannot
 * know before the status says so: the higher of the two counts (decision 052). A category the card does not
 * price (none stored) counts at the dearest of all.
 */
function billableAs(templateCategory: string | null): readonly RateCategory[] {
  const category = templateCategory ? rateCategory(templateCategory) : null;
  if (category === 'authentication') return ['authentication', 'authentication_international'];
  return category ? [category] : RATE_CATEGORIES;
}

function dearest(
  card: RateCard,
  markets: readonly string[],
  categories: readonly RateCategory[],
  day: string,
) {
  let most: number | null = null;
  for (const market of markets) {
    for (const category of categories) {
      const rate = rateOn(card, market, category, day);
      if (rate !== null && (most === null || rate > most)) most = rate;
    }
  }
  return most;
}

/**
 * A number's market by its first four digits ('+' and four), as the cost estimate groups them (decision 049):
 * they hold the calling code and, for +1 and +7, enough to tell the number's country. Parsing each number with
 * libphonenumber-js took most of a capped batch's check; a few hundred prefixes cover every audience.
 */
const marketOfPrefix = new Map<string, string>();
function marketOf(number: string): string {
  const prefix = number.slice(0, 5);
  let market = marketOfPrefix.get(prefix);
  if (market === undefined) {
    market = marketOfNumber(number);
    marketOfPrefix.set(prefix, market);
  }
  return market;
}

/**
 * What one requested message could cost, in micro-USD: its recipient's market's rate for the template's category
 * on the send day (UTC, YYYY-MM-DD), as if billable. A customer known only by a BSUID has no market Herald can
 * see, so the dearest market counts; a day before the card counts at the dearest rate the card has.
 */
export function messageCostMicros(
  card: RateCard,
  address: string,
  templateCategory: string | null,
  day: string,
): number {
  const categories = billableAs(templateCategory);
  const markets = isBsuidAddress(address) ? MARKETS : [marketOf(address)];
  const rate =
    dearest(card, markets, categories, day) ??
    Math.max(...card.rows.flatMap((row) => Object.values(row.rates)));
  return toMicros(rate);
}

let shippedCard: RateCard | undefined;
/** The shipped rate card, read once, for an engine built without one (tests, benches). */
export function shippedRateCard(): RateCard {
  shippedCard ??= loadRateCard(DEFAULT_RATE_CARD_FILE);
  return shippedCard;
}
