import { invalidParameter, missingParameter } from '../errors';
import { enumList, granularityParam, listOf, timestamp } from '../graph-filters';
import { DAY_SECONDS, dayOf } from './template-analytics-ledger';

/**
 * The filters of Meta's template analytics (WhatsApp Business Management API, "Analytics" guide, Template
 * analytics): written as field modifiers (`fields=template_analytics.start(…).end(…).granularity(DAILY)
 * .metric_types([…]).template_ids([…])`) or, on the `/{waba-id}/template_analytics` edge, as query parameters.
 */
export const TEMPLATE_GRANULARITIES = ['DAILY'] as const;
export const TEMPLATE_METRIC_TYPES = ['SENT', 'DELIVERED', 'READ', 'CLICKED'] as const;
export type TemplateMetricType = (typeof TEMPLATE_METRIC_TYPES)[number];

/** Meta: at most 10 template ids per request. */
export const MAX_TEMPLATE_IDS = 10;
/** Meta: a lookback of up to 90 days. */
export const TEMPLATE_LOOKBACK_SECONDS = 90 * DAY_SECONDS;

export interface TemplateAnalyticsQuery {
  /** 00:00 UTC of the first day (Meta floors a start inside a day to that day's 00:00 UTC). */
  start: number;
  /** 00:00 UTC after the last day (Meta rounds an end inside a day up to the next 00:00 UTC). */
  end: number;
  granularity: 'DAILY';
  /** Every metric when the filter is absent or empty. */
  metricTypes: TemplateMetricType[];
  templateIds: string[];
}

/**
 * Reads and checks the filters: template_ids, start, end, granularity are required; metric_types is optional.
 * Each failure is Graph's invalid-parameter error (400, code 100) naming the parameter. `template_ids` first:
 * without it there is nothing to answer about, and it is the parameter callers most often leave out.
 */
export function readTemplateAnalyticsQuery(
  get: (name: string) => string | undefined,
  now: number,
): TemplateAnalyticsQuery {
  const rawIds = get('template_ids');
  if (rawIds === undefined || rawIds.trim() === '') throw missingParameter('template_ids');
  const templateIds = [...new Set(listOf(rawIds))];
  if (templateIds.length === 0) throw invalidParameter('template_ids must name at least one template id');
  if (templateIds.length > MAX_TEMPLATE_IDS) {
    throw invalidParameter(
      `template_ids may name at most ${MAX_TEMPLATE_IDS} templates; got ${templateIds.length}`,
    );
  }
  const wrongId = templateIds.find((id) => !/^\d+$/.test(id));
  if (wrongId !== undefined)
    throw invalidParameter(`template_ids must be template ids (digits); got ${wrongId}`);

  const rawStart = timestamp('start', get('start'));
  const rawEnd = timestamp('end', get('end'));
  const rawGranularity = granularityParam(get('granularity'));
  if (rawGranularity.toUpperCase() !== 'DAILY') {
    throw invalidParameter(
      `granularity must be DAILY (the only one template analytics has); got ${rawGranularity}`,
    );
  }
  if (rawEnd <= rawStart) throw invalidParameter('end must be after start');
  const start = dayOf(rawStart);
  const end = dayOf(rawEnd) === rawEnd ? rawEnd : dayOf(rawEnd) + DAY_SECONDS;
  if (start < dayOf(now) - TEMPLATE_LOOKBACK_SECONDS) {
    throw invalidParameter(
      'start must be within the last 90 days (the lookback window of template analytics)',
    );
  }

  const metricTypes = enumList('metric_types', get('metric_types'), TEMPLATE_METRIC_TYPES);
  return {
    start,
    end,
    granularity: 'DAILY',
    metricTypes: metricTypes.length === 0 ? [...TEMPLATE_METRIC_TYPES] : metricTypes,
    templateIds,
  };
}
