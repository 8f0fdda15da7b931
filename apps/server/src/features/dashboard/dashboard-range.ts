import { DASHBOARD_DEFAULT_DAYS, dayCount, type DashboardQuery } from '@herald/contracts';

/** A range of local days in a time zone: `from` and `to` both included. */
export interface DayRange {
  from: string;
  to: string;
  days: number;
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Today's date in `tz` (YYYY-MM-DD). */
export function today(tz: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * The asked range (the last DASHBOARD_DEFAULT_DAYS days ending today when absent; a lone `from` runs to today,
 * a lone `to` goes back the default length) and the previous period of the same length, just before it.
 */
export function ranges(query: DashboardQuery, now = new Date()): { current: DayRange; previous: DayRange } {
  const to = query.to ?? (query.from ? maxDay(query.from, today(query.tz, now)) : today(query.tz, now));
  const from = query.from ?? addDays(to, -(DASHBOARD_DEFAULT_DAYS - 1));
  const days = dayCount(from, to);
  return {
    current: { from, to, days },
    previous: { from: addDays(from, -days), to: addDays(from, -1), days },
  };
}

const maxDay = (a: string, b: string) => (a > b ? a : b);

/** Every local day of a range, in order. */
export function daysOf(range: DayRange): string[] {
  return Array.from({ length: range.days }, (_, i) => addDays(range.from, i));
}

export { addDays };
