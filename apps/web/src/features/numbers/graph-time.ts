const OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** Dates and times in the user's time zone, as the other tables show them ('Nov 23, 2026, 7:51 PM'). */
const local = new Intl.DateTimeFormat('en-US', OPTIONS);

/**
 * A Graph API time ('2026-11-23T19:51:30+0000', its offset without a colon) in the user's time zone (or
 * `timeZone`); the text as it came when it is no time, so nothing is hidden.
 */
export function formatGraphTime(value: string, timeZone?: string): string {
  const date = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  if (Number.isNaN(date.getTime())) return value;
  return (timeZone ? new Intl.DateTimeFormat('en-US', { ...OPTIONS, timeZone }) : local).format(date);
}
