import type { DashboardCard } from '@herald/contracts';

const countFormat = new Intl.NumberFormat('en-US');
const percentFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** 12,345 */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

/** '98.2%' */
export function formatPercent(value: number): string {
  return `${percentFormat.format(value)}%`;
}

/** Whole seconds as '45s', '4m 32s', '3h 5m', '2d 4h': a response time is read at a glance. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/** A card's value in its unit; '—' when it cannot be computed (nothing delivered), never a made-up 0. */
export function formatCardValue(unit: DashboardCard['unit'], value: number | null): string {
  if (value === null) return '—';
  if (unit === 'percent') return formatPercent(value);
  if (unit === 'seconds') return formatDuration(value);
  return formatCount(value);
}

/** 'Nov 24' from a local day 'YYYY-MM-DD' (read as that calendar day, whatever the browser's zone). */
export function formatDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
