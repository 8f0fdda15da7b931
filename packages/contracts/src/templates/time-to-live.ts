/**
 * A marketing template's time-to-live (Meta: "message validity period"): how long WhatsApp keeps trying to
 * deliver a message before it drops it. Meta sets it per template (`message_send_ttl_seconds`, in 1-second
 * steps); a marketing template's own TTL applies only to sends through the Marketing Messages API, and from
 * 12 hours to 30 days, 30 days when none is set. Herald offers a few whole choices within those bounds.
 */
const HOUR = 3_600;
const DAY = 24 * HOUR;

export const MARKETING_TTL = {
  minSeconds: 12 * HOUR,
  maxSeconds: 30 * DAY,
  /** Meta's default when a marketing template has none. */
  defaultSeconds: 30 * DAY,
} as const;

/** The choices the template form offers, shortest first; Meta's default is the last. */
export const MARKETING_TTL_CHOICES = [12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY] as const;

export const TTL_MESSAGES = {
  outOfRange: 'must be a whole number of seconds from 43200 (12 hours) to 2592000 (30 days)',
  marketingOnly: 'only a marketing template takes a time-to-live here',
} as const;

/** '12 hours', '1 day', '30 days'; seconds that are no whole hour read as minutes or seconds. */
export function formatTimeToLive(seconds: number): string {
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (seconds % DAY === 0) return unit(seconds / DAY, 'day');
  if (seconds % HOUR === 0) return unit(seconds / HOUR, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/** The problem with a payload's `message_send_ttl_seconds` for its category, or null when it is fine or absent. */
export function timeToLiveError(value: unknown, category: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (category !== 'MARKETING') return TTL_MESSAGES.marketingOnly;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MARKETING_TTL.minSeconds ||
    value > MARKETING_TTL.maxSeconds
  )
    return TTL_MESSAGES.outOfRange;
  return null;
}
