const countFormat = new Intl.NumberFormat('en-US');
const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** 12,345 */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** A percentage with at most one decimal: '55%', '33.3%'. */
export function formatPercent(value: number): string {
  return `${percentFormat.format(value)}%`;
}

/** `part` as a percentage of `whole` ('0%' when the whole is 0). */
export function percentOf(part: number, whole: number): string {
  return formatPercent(whole > 0 ? (part * 100) / whole : 0);
}

/** 'completed' → 'Completed': a broadcast's status as the history and the report show it. */
export function formatStatus(status: string): string {
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : status;
}

const clockFormat = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** '14:05' in the user's time zone: when a waiting broadcast resumes. */
export function formatClockTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : clockFormat.format(date);
}
