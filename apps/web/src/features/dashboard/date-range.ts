import { DASHBOARD_DEFAULT_DAYS, DASHBOARD_MAX_DAYS, dayCount } from '@herald/contracts';

export type DayRange = { from: string; to: string };

/** The user's IANA time zone: the server counts each local day in it. */
export function userTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Today as 'YYYY-MM-DD' in `tz` (en-CA writes dates that way). */
export function todayIn(tz: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** `day` moved by `days` calendar days (UTC arithmetic on a date without a time: no DST surprises). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The default range: the last DASHBOARD_DEFAULT_DAYS days, today included. */
export function defaultRange(tz: string, now: Date = new Date()): DayRange {
  const to = todayIn(tz, now);
  return { from: addDays(to, -(DASHBOARD_DEFAULT_DAYS - 1)), to };
}

/** Why a chosen range cannot be asked for (the server would refuse it naming `to`), or null. */
export function rangeProblem({ from, to }: DayRange): string | null {
  if (!from || !to) return 'Choose both dates.';
  if (from > to) return 'The end date must not be before the start date.';
  if (dayCount(from, to) > DASHBOARD_MAX_DAYS) return `Choose at most ${DASHBOARD_MAX_DAYS} days.`;
  return null;
}
