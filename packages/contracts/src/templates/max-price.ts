/**
 * A marketing template's maximum price (Meta's "max price", open beta since 2026-10-01): the most the business
 * pays for one delivery of a message of the template through the Marketing Messages API; Meta charges that or
 * less. Meta takes it on the template as `optimization_spec: {bid_amount, bid_strategy}`, where `bid_amount` is
 * the price per 1,000 deliveries in the smallest unit of the account's currency (US cents for Herald's USD
 * accounts). Herald stores Meta's number and shows it as US dollars per delivered message.
 */
export const MAX_PRICE = {
  /** The only strategy Meta documents for a max price. */
  bidStrategy: 'LOWEST_COST_WITH_BID_CAP',
  /** Meta's bid_amount is an int32. */
  maxBidAmount: 2_147_483_647,
  /** US cents per 1,000 deliveries in one US dollar per delivery. */
  bidAmountPerDollar: 100_000,
} as const;

export const MAX_PRICE_MESSAGES = {
  amount: 'The maximum price must be an amount in USD per delivered message, such as 0.025',
  positive: 'The maximum price must be more than 0',
  decimals: 'The maximum price must have at most 5 decimals',
  tooHigh: 'The maximum price must be at most $21,474.83647 per message',
  bidAmount: 'must be a whole number of US cents per 1,000 deliveries, from 1 to 2147483647',
  marketingOnly: 'only a marketing template takes a maximum price',
} as const;

/** Why the server refuses a max price Meta would not take, by what the template is at Meta. */
export const MAX_PRICE_EDIT_MESSAGES = {
  needsMmApi:
    'A maximum price applies to sends through the Marketing Messages API; onboard this account in Settings first',
  noAdd: 'WhatsApp takes a maximum price only when a template is created: create a new template to set one',
  noRemove:
    'WhatsApp does not remove a maximum price from a template: set another price, or create a new template without one',
} as const;

/** Meta's bid_amount (US cents per 1,000 deliveries) → US dollars per delivered message. */
export function maxPriceDollars(bidAmount: number): number {
  return bidAmount / MAX_PRICE.bidAmountPerDollar;
}

/** '$0.025 per delivered message' style amount: at least 2 decimals, up to the 5 a bid can carry. */
export function formatMaxPrice(bidAmount: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 5,
  }).format(maxPriceDollars(bidAmount));
}

/** Text typed in the template form ('0.025', '$0.03') → Meta's bid_amount, or why not ('' is none). */
export function parseMaxPrice(
  text: string,
): { ok: true; value: number | null } | { ok: false; message: string } {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return { ok: false, message: MAX_PRICE_MESSAGES.amount };
  const [, decimals = ''] = trimmed.split('.');
  if (decimals.length > 5) return { ok: false, message: MAX_PRICE_MESSAGES.decimals };
  // Whole units and decimals apart: no float rounding between what is typed and what Meta is sent.
  const [whole = '0'] = trimmed.split('.');
  const bidAmount = Number(whole || '0') * MAX_PRICE.bidAmountPerDollar + Number(decimals.padEnd(5, '0'));
  if (bidAmount <= 0) return { ok: false, message: MAX_PRICE_MESSAGES.positive };
  if (bidAmount > MAX_PRICE.maxBidAmount) return { ok: false, message: MAX_PRICE_MESSAGES.tooHigh };
  return { ok: true, value: bidAmount };
}

/** The problem with a payload's `max_price_bid_amount` for its category, or null when it is fine or absent. */
export function maxPriceError(value: unknown, category: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (category !== 'MARKETING') return MAX_PRICE_MESSAGES.marketingOnly;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_PRICE.maxBidAmount)
    return MAX_PRICE_MESSAGES.bidAmount;
  return null;
}
