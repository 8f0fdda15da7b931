const OPTIONS: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const local = new Intl.DateTimeFormat('en-US', OPTIONS);

/**
 * 'Nov 25, 2026, 9:00 AM' in the user's time zone (or `timeZone`): every date and time the dashboard shows in a
 * table, a list or a sentence. A value that is no date is shown as it came, so nothing is hidden.
 */
export function formatDateTime(value: Date | string, timeZone?: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return (timeZone ? new Intl.DateTimeFormat('en-US', { ...OPTIONS, timeZone }) : local).format(date);
}
