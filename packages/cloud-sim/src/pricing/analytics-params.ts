import { invalidParameter, missingParameter } from '../errors';

/**
 * The filters of Meta's pricing analytics (WhatsApp Business Management API, "Analytics" guide, Pricing
 * analytics): written as field modifiers (`fields=pricing_analytics.start(…).end(…).granularity(DAILY)…`) or,
 * on the `/{waba-id}/pricing_analytics` edge, as query parameters of the same names.
 */
export const GRANULARITIES = ['HALF_HOUR', 'DAILY', 'MONTHLY'] as const;
export const DIMENSIONS = ['COUNTRY', 'PHONE', 'PRICING_CATEGORY', 'PRICING_TYPE', 'TIER'] as const;
export const METRIC_TYPES = ['COST', 'VOLUME'] as const;
export const PRICING_TYPES = ['FREE_CUSTOMER_SERVICE', 'FREE_ENTRY_POINT', 'REGULAR'] as const;
export const PRICING_CATEGORIES = [
  'AUTHENTICATION',
  'AUTHENTICATION_INTERNATIONAL',
  'MARKETING',
  'MARKETING_LITE',
  'REFERRAL_CONVERSION',
  'SERVICE',
  'UTILITY',
] as const;

export type Granularity = (typeof GRANULARITIES)[number];
export type Dimension = (typeof DIMENSIONS)[number];
export type MetricType = (typeof METRIC_TYPES)[number];

/** Meta's lookback window for pricing analytics: one year since 2025-12-01 (ten years before). */
export const LOOKBACK_SECONDS = 366 * 24 * 60 * 60;

export interface AnalyticsQuery {
  start: number;
  end: number;
  granularity: Granularity;
  /** Empty: no filter (Meta: "if you send an empty array, we return results for all …"). */
  phoneNumbers: string[];
  countryCodes: string[];
  metricTypes: MetricType[];
  pricingTypes: string[];
  pricingCategories: string[];
  dimensions: Dimension[];
}

/** Splits `a,b(c,d),e([f,g])` at the commas outside brackets: Graph's field list with modifiers. */
export function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(' || char === '[') depth += 1;
    if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts.filter(Boolean);
}

/** `pricing_analytics.start(1).end(2).dimensions(["A","B"])` → { start: '1', end: '2', dimensions: '["A","B"]' }. */
export function modifiersOf(field: string): Record<string, string> {
  const modifiers: Record<string, string> = {};
  const pattern = /\.([a-z_]+)\(((?:[^()]|\([^()]*\))*)\)/g;
  for (const match of field.matchAll(pattern)) modifiers[match[1] as string] = match[2] as string;
  return modifiers;
}

/** `["A","B"]`, `[A,B]`, `A,B`, `[]` or `` → the items, unquoted. */
function listOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return inner
    .split(',')
    .map((item) => item.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
}

function timestamp(name: 'start' | 'end', value: string | undefined): number {
  if (value === undefined || value.trim() === '') throw missingParameter(name);
  if (!/^\d{1,12}$/.test(value.trim())) throw invalidParameter(`${name} must be a UNIX timestamp`);
  return Number(value.trim());
}

function enumList<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T[] {
  const items = listOf(value).map((item) => item.toUpperCase());
  const wrong = items.find((item) => !(allowed as readonly string[]).includes(item));
  if (wrong !== undefined)
    throw invalidParameter(`${name} must be among ${allowed.join(', ')}; got ${wrong}`);
  return items as T[];
}

/**
 * Reads and checks the filters, in the order Meta's table lists the required ones: start, end, granularity; then
 * the time range (end after start, start within the lookback window); then each list. Every failure is Graph's
 * invalid-parameter error (400, code 100), naming the parameter.
 */
export function readAnalyticsQuery(get: (name: string) => string | undefined, now: number): AnalyticsQuery {
  const start = timestamp('start', get('start'));
  const end = timestamp('end', get('end'));
  const rawGranularity = get('granularity')
    ?.trim()
    .replace(/^["']|["']$/g, '');
  if (!rawGranularity) throw missingParameter('granularity');
  const granularity = rawGranularity.toUpperCase();
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) {
    throw invalidParameter(`granularity must be one of ${GRANULARITIES.join(', ')}; got ${rawGranularity}`);
  }
  if (end <= start) throw invalidParameter('end must be after start');
  if (start < now - LOOKBACK_SECONDS) {
    throw invalidParameter('start must be within the last year (the lookback window of pricing analytics)');
  }
  const countryCodes = listOf(get('country_codes')).map((c) => c.toUpperCase());
  const wrongCountry = countryCodes.find((c) => !/^[A-Z]{2}$/.test(c));
  if (wrongCountry !== undefined) {
    throw invalidParameter(`country_codes must be 2-letter country codes; got ${wrongCountry}`);
  }
  const phoneNumbers = listOf(get('phone_numbers')).map((p) => p.replace(/^\+/, ''));
  const wrongPhone = phoneNumbers.find((p) => !/^\d{5,15}$/.test(p));
  if (wrongPhone !== undefined) {
    throw invalidParameter(`phone_numbers must be phone numbers (digits); got ${wrongPhone}`);
  }
  return {
    start,
    end,
    granularity: granularity as Granularity,
    phoneNumbers,
    countryCodes,
    metricTypes: enumList('metric_types', get('metric_types'), METRIC_TYPES),
    pricingTypes: enumList('pricing_types', get('pricing_types'), PRICING_TYPES),
    pricingCategories: enumList('pricing_categories', get('pricing_categories'), PRICING_CATEGORIES),
    dimensions: enumList('dimensions', get('dimensions'), DIMENSIONS),
  };
}
