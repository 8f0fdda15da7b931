import { formatDateTime } from '../../lib/date-time';

/**
 * A Graph API time ('2026-11-23T19:51:30+0000', its offset without a colon) as the other tables show times, in
 * the user's time zone (or `timeZone`); the text as it came when it is no time, so nothing is hidden.
 */
export function formatGraphTime(value: string, timeZone?: string): string {
  const date = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(date.getTime()) ? value : formatDateTime(date, timeZone);
}
