import type { AnalyticsQuery, Granularity } from './analytics-params';
import type { BilledMessage, BillingLedger } from './billing-ledger';

/** One entry of `pricing_analytics.data[].data_points[]`, its keys in the order Meta's examples show them. */
export interface PricingDataPoint {
  start: number;
  end: number;
  phone_number?: string;
  country?: string;
  tier?: string;
  pricing_type?: string;
  pricing_category?: string;
  volume?: number;
  cost?: number;
}

export interface PricingAnalytics {
  data: { data_points: PricingDataPoint[] }[];
}

const STEP_SECONDS: Record<Exclude<Granularity, 'MONTHLY'>, number> = { HALF_HOUR: 1800, DAILY: 86_400 };

/** The same UTC time a calendar month later (the 31st becomes the next month's last day, as months end). */
function nextMonth(seconds: number): number {
  const date = new Date(seconds * 1000);
  const target = new Date(date);
  target.setUTCDate(1);
  target.setUTCMonth(date.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

/**
 * The buckets of [start, end), counted from `start` as Meta's examples count them (a DAILY point of a request
 * starting 07:00 UTC runs 07:00 to 07:00), the last one cut at `end`.
 */
export function buckets(start: number, end: number, granularity: Granularity): [number, number][] {
  const list: [number, number][] = [];
  for (let from = start; from < end;) {
    const to =
      granularity === 'MONTHLY' ? nextMonth(from) : from + STEP_SECONDS[granularity as 'DAILY' | 'HALF_HOUR'];
    list.push([from, Math.min(to, end)]);
    from = to;
  }
  return list;
}

function bucketOf(bucketList: [number, number][], at: number): [number, number] | undefined {
  // Buckets are in order and contiguous: a binary search finds the one holding `at`.
  let low = 0;
  let high = bucketList.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [from, to] = bucketList[mid] as [number, number];
    if (at < from) high = mid - 1;
    else if (at >= to) low = mid + 1;
    else return bucketList[mid];
  }
  return undefined;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function matches(query: AnalyticsQuery, billed: BilledMessage): boolean {
  return (
    (query.phoneNumbers.length === 0 || query.phoneNumbers.includes(billed.phoneNumber)) &&
    (query.countryCodes.length === 0 || query.countryCodes.includes(billed.country)) &&
    (query.pricingTypes.length === 0 || query.pricingTypes.includes(billed.pricingType)) &&
    (query.pricingCategories.length === 0 || query.pricingCategories.includes(billed.pricingCategory))
  );
}

/**
 * Meta's pricing analytics over what the sandbox billed: one data point per bucket and combination of the asked
 * dimensions (none: one per bucket), buckets without messages left out, newest first as in Meta's example.
 * `tier` is "0:MAX" for every billed message: the sandbox has no volume tiers (Meta gives marketing "0:MAX").
 */
export function pricingAnalytics(
  ledger: BillingLedger,
  wabaId: string,
  query: AnalyticsQuery,
): PricingAnalytics {
  const bucketList = buckets(query.start, query.end, query.granularity);
  const dims = new Set(query.dimensions);
  const metrics = new Set(query.metricTypes.length === 0 ? ['COST', 'VOLUME'] : query.metricTypes);
  const points = new Map<string, { point: PricingDataPoint; volume: number; cost: number }>();
  for (const billed of ledger.between(wabaId, query.start, query.end)) {
    if (!matches(query, billed)) continue;
    const bucket = bucketOf(bucketList, billed.deliveredAt);
    if (!bucket) continue;
    const point: PricingDataPoint = {
      start: bucket[0],
      end: bucket[1],
      ...(dims.has('PHONE') ? { phone_number: billed.phoneNumber } : {}),
      ...(dims.has('COUNTRY') ? { country: billed.country } : {}),
      ...(dims.has('TIER') ? { tier: '0:MAX' } : {}),
      ...(dims.has('PRICING_TYPE') ? { pricing_type: billed.pricingType } : {}),
      ...(dims.has('PRICING_CATEGORY') ? { pricing_category: billed.pricingCategory } : {}),
    };
    const key = JSON.stringify(point);
    const entry = points.get(key) ?? { point, volume: 0, cost: 0 };
    entry.volume += 1;
    entry.cost += billed.cost;
    points.set(key, entry);
  }
  const dataPoints = [...points.values()]
    .map(({ point, volume, cost }) => ({
      ...point,
      ...(metrics.has('VOLUME') ? { volume } : {}),
      ...(metrics.has('COST') ? { cost: round(cost) } : {}),
    }))
    .sort((a, b) => b.start - a.start);
  return { data: [{ data_points: dataPoints }] };
}
