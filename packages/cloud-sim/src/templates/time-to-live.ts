import { invalidParameter } from '../errors';

// Written out rather than imported: the template validation and the accepted log both read this module.
type TemplateCategory = 'AUTHENTICATION' | 'UTILITY' | 'MARKETING';
type SendEndpoint = 'messages' | 'marketing_messages';

/**
 * Meta's message time-to-live (templates/time-to-live): how long WhatsApp keeps trying to deliver a message
 * before it drops it. A template may set its own (`message_send_ttl_seconds`, 1-second steps) within its
 * category's range; AUTHENTICATION and UTILITY also take -1, a custom TTL of 30 days.
 */
const MINUTE = 60;
const HOUR = 60 * MINUTE;
export const THIRTY_DAYS_SECONDS = 30 * 24 * HOUR;

/** The value that stands for a custom 30-day TTL on authentication and utility templates. */
const THIRTY_DAY_CUSTOM = -1;

interface TtlRange {
  min: number;
  max: number;
  /** Whether -1 (30 days) is accepted. */
  thirtyDayCustom: boolean;
  /** Meta's TTL when the template has none, or when its own does not apply to the send. */
  defaultSeconds: number;
}

export const TTL_RANGES: Record<TemplateCategory, TtlRange> = {
  AUTHENTICATION: { min: 30, max: 15 * MINUTE, thirtyDayCustom: true, defaultSeconds: 10 * MINUTE },
  UTILITY: { min: 30, max: 12 * HOUR, thirtyDayCustom: true, defaultSeconds: THIRTY_DAYS_SECONDS },
  MARKETING: {
    min: 12 * HOUR,
    max: THIRTY_DAYS_SECONDS,
    thirtyDayCustom: false,
    defaultSeconds: THIRTY_DAYS_SECONDS,
  },
};

/** Every message that is not a template (a reply in a service window) keeps Meta's 30 days. */
export const FREE_FORM_TTL_SECONDS = THIRTY_DAYS_SECONDS;

function rangeText(category: TemplateCategory): string {
  const { min, max, thirtyDayCustom } = TTL_RANGES[category];
  return `from ${min} to ${max}${thirtyDayCustom ? ', or -1 (30 days),' : ''} for a ${category} template`;
}

/**
 * A template's `message_send_ttl_seconds` (a number, or its digits in a form body) checked against its
 * category. null or '' means none (Meta's default), which is also how a caller clears it in an edit.
 */
export function parseTimeToLive(raw: unknown, category: TemplateCategory): number | null {
  if (raw === null || raw === '') return null;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  const range = TTL_RANGES[category];
  const fits =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    ((value >= range.min && value <= range.max) || (range.thirtyDayCustom && value === THIRTY_DAY_CUSTOM));
  if (!fits) {
    throw invalidParameter(
      `message_send_ttl_seconds must be a whole number of seconds ${rangeText(category)}`,
    );
  }
  return value;
}

/**
 * The TTL a send gets: the template's own when it applies to the endpoint (authentication and utility through
 * Cloud API's `/messages`, marketing only through the MM API's `/marketing_messages`), -1 read as 30 days;
 * otherwise the category's default. The category is the template's as of the send.
 */
export function effectiveTtlSeconds(
  template: { category: TemplateCategory; messageSendTtlSeconds?: number | null },
  endpoint: SendEndpoint,
): number {
  const range = TTL_RANGES[template.category];
  const own = template.messageSendTtlSeconds;
  const applies =
    template.category === 'MARKETING' ? endpoint === 'marketing_messages' : endpoint === 'messages';
  if (own === undefined || own === null || !applies) return range.defaultSeconds;
  return own === THIRTY_DAY_CUSTOM ? THIRTY_DAYS_SECONDS : own;
}
