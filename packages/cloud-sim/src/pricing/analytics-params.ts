import { invalidParameter } from '../errors';
import { enumList, granularityParam, listOf, timestamp } from '../graph-filters';

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

/**
 * Reads and checks the filters, in the order Meta's table lists the required ones: start, end, granularity; then
 * the time range (end after start, start within the lookback window); then each list. Every failure is Graph's
 * invalid-parameter error (400, code 100), naming the parameter.
 */
export function readAnalyticsQuery(get: (name: string) => string | undefined, now: number): AnalyticsQuery {
  const start = timestamp('start', get('start'));
  const end = timestamp('end', get('end'));
  const rawGranularity = granularityParam(get('granularity'));
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
