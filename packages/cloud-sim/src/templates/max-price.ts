import { GraphError, invalidParameter } from '../errors';
import { priceDelivered } from '../pricing/meta-rates';

// Written out rather than imported: the template store, the sends and the status payloads all read this module.
type TemplateCategory = 'AUTHENTICATION' | 'UTILITY' | 'MARKETING';
type SendEndpoint = 'messages' | 'marketing_messages';

/**
 * Meta's max price for marketing messages (marketing-messages/pricing, open beta since 2026-10-01): a MARKETING
 * template may carry `optimization_spec: {bid_amount, bid_strategy}`, the most the business pays per delivery
 * of a message sent with it through the Marketing Messages API; Meta charges that or less. `bid_amount` is an
 * int32, the price per 1,000 deliveries in the smallest unit of the WABA's currency (87000 = ₹0.87 each).
 */
export const BID_STRATEGY = 'LOWEST_COST_WITH_BID_CAP';
const INT32_MAX = 2_147_483_647;
/** Smallest units per 1,000 deliveries → currency units per delivery: ÷ 1,000 deliveries, ÷ 100 cents. */
const BID_UNITS_PER_CURRENCY_UNIT = 100_000;

/** Meta's 131061, word for word: its text still says bid_spec, the object's name before optimization_spec. */
const CLOUD_API_REFUSAL =
  'Marketing templates containing bid_spec are not supported by the Cloud API. To use templates with ' +
  'bid_spec, please use the Marketing Messages API for WhatsApp.';

/** The Graph shape of a template's max price, as `fields=optimization_spec` answers it. */
export function optimizationSpecNode(bidAmount: number) {
  return { bid_strategy: BID_STRATEGY, bid_amount: bidAmount };
}

/** Form-encoded Graph calls send structured values as JSON strings. */
function decodeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A number, or its digits in a form body. */
function numberOf(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
}

/**
 * `bid_spec` on a template: the object's old name, accepted beside `optimization_spec` until 2026-07-31 and
 * "no longer supported" after, so the sandbox (dated after it) refuses it rather than silently dropping a price.
 */
export function refuseBidSpec(params: Record<string, unknown>): void {
  if (params.bid_spec === undefined) return;
  throw invalidParameter(
    'bid_spec is no longer supported since July 31, 2026: set the max price with optimization_spec ' +
      '({"bid_amount": …, "bid_strategy": "LOWEST_COST_WITH_BID_CAP"})',
  );
}

/** A template's `optimization_spec` checked against its category; answers its bid_amount. */
export function parseOptimizationSpec(raw: unknown, category: TemplateCategory): number {
  const spec = decodeJson(raw);
  if (!isObject(spec)) {
    throw invalidParameter('optimization_spec must be an object with bid_amount and bid_strategy');
  }
  if (category !== 'MARKETING') {
    throw invalidParameter(
      `optimization_spec (a max price) applies to MARKETING templates only, not to a ${category} template`,
    );
  }
  if (spec.bid_strategy !== BID_STRATEGY) {
    throw invalidParameter(`optimization_spec.bid_strategy must be ${BID_STRATEGY}`);
  }
  const amount = numberOf(spec.bid_amount);
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > INT32_MAX) {
    throw invalidParameter(
      `optimization_spec.bid_amount must be a whole number from 1 to ${INT32_MAX}: the max price per 1,000 ` +
        "deliveries in the smallest unit of the WABA's currency (5000 = $0.05 per delivery)",
    );
  }
  return amount;
}

/**
 * Meta's prerequisite for a max price: a WABA onboarded to the Marketing Messages API, the only endpoint that
 * sends such a template. Meta documents no error for it; the sandbox answers a code 100 naming the field.
 * The caller says whether the WABA is onboarded (this module stays below the sandbox context).
 */
export function requireMmApiOnboarding(onboarded: boolean): void {
  if (onboarded) return;
  throw invalidParameter(
    'optimization_spec (a max price) needs the WhatsApp Business Account onboarded to the Marketing Messages API',
  );
}

/**
 * The max price after an edit (`POST /{template-id}`). Meta: an edit may update the `optimization_spec` of a
 * template created with one, and cannot add one to a template created without it (create a new template).
 * Meta documents no way to remove one, so a null or empty `optimization_spec` is refused too. Left out, it is
 * kept, unless the edit moves the template out of MARKETING, which takes none (as the TTL is reset then).
 */
export function editedMaxPrice(
  raw: unknown,
  current: number | undefined,
  category: TemplateCategory,
): number | undefined {
  if (raw === undefined) return category === 'MARKETING' ? current : undefined;
  if (raw === null || raw === '') {
    throw invalidParameter(
      "optimization_spec can't be removed from a template; create a new template without a max price",
    );
  }
  if (current === undefined) {
    throw invalidParameter(
      "optimization_spec can't be added to a template created without one; create a new template with it",
    );
  }
  return parseOptimizationSpec(raw, category);
}

/** Meta's answer to a template with a max price sent through Cloud API's `/messages`. */
export function maxPriceNotOnCloudApi(): GraphError {
  return new GraphError(400, 131061, `(#131061) ${CLOUD_API_REFUSAL}`, { details: CLOUD_API_REFUSAL });
}

/**
 * `bid_spec.per_message_bid_multiplier` of a `/marketing_messages` send (Meta keeps the `bid_spec` name on the
 * send): a positive float scaling the template's bid_amount for this message, default 1. Meta documents no
 * other bound and marks the multiplier subject to change during the beta.
 */
export function parseBidMultiplier(raw: unknown): number {
  if (raw === undefined) return 1;
  const bidSpec = decodeJson(raw);
  if (!isObject(bidSpec))
    throw invalidParameter('bid_spec must be an object with per_message_bid_multiplier');
  if (bidSpec.per_message_bid_multiplier === undefined) return 1;
  const multiplier = numberOf(bidSpec.per_message_bid_multiplier);
  if (typeof multiplier !== 'number' || !Number.isFinite(multiplier) || multiplier <= 0) {
    throw invalidParameter(
      "bid_spec.per_message_bid_multiplier must be a positive number (1.5 raises the template's max price by 50%)",
    );
  }
  return multiplier;
}

/**
 * The max price of one send, in currency units per delivery, or undefined when its template has none. Such a
 * template goes through the MM API only: Cloud API's `/messages` refuses it (131061).
 */
export function maxPriceOfSend(
  template: { maxPriceBidAmount?: number },
  endpoint: SendEndpoint,
  params: Record<string, unknown>,
): number | undefined {
  if (template.maxPriceBidAmount === undefined) return undefined;
  if (endpoint === 'messages') throw maxPriceNotOnCloudApi();
  return (template.maxPriceBidAmount * parseBidMultiplier(params.bid_spec)) / BID_UNITS_PER_CURRENCY_UNIT;
}

/**
 * What a delivered max-price message costs in the sandbox: its max price or the rate card's price, whichever
 * is lower. Meta charges "the max price or lower" by an auction it does not publish; this is the sandbox's own
 * stand-in. Rounded to 6 decimals so no float noise reaches a webhook. Undefined for any other message.
 */
export function maxPriceCharge(message: {
  recipient: string;
  category: string;
  maxPrice?: number;
}): number | undefined {
  if (message.maxPrice === undefined) return undefined;
  const rateCard = priceDelivered(message.recipient, message.category).cost;
  return Math.round(Math.min(rateCard, message.maxPrice) * 1e6) / 1e6;
}
