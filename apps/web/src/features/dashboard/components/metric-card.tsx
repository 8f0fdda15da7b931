import { useId, type ReactNode } from 'react';
import type { DashboardCard } from '@herald/contracts';
import { formatCardValue, formatPercent } from '../format';

/** Cards where a fall is good news: fewer failures, quicker answers. */
const LOWER_IS_BETTER = new Set<DashboardCard['key']>(['failed_messages', 'avg_response_time']);

/** '▲ 25% vs last period' (a screen reader hears 'Up 25% vs last period'). */
export function ChangeText({ change }: { change: number }) {
  return (
    <>
      <span aria-hidden="true">{change > 0 ? '▲ ' : change < 0 ? '▼ ' : ''}</span>
      <span className="sr-only">{change > 0 ? 'Up ' : change < 0 ? 'Down ' : 'Unchanged '}</span>
      {formatPercent(Math.abs(change))} vs last period
    </>
  );
}

/** A change's colour: green when it is good news, red when not, grey when nothing moved. */
export function changeTone(change: number, good: boolean): string {
  return change === 0 ? 'text-slate-500' : good ? 'text-emerald-700' : 'text-red-600';
}

/**
 * One figure with its change against the previous period of the same length, and any line the page adds under
 * it (`children`). The definition is on the card (title attribute for the mouse, aria-describedby for a screen
 * reader, a visible line under the value), so nobody has to guess what a figure counts.
 */
export function MetricCard({ card, children }: { card: DashboardCard; children?: ReactNode }) {
  const id = useId();
  const change = card.change;
  const good = change !== null && change > 0 !== LOWER_IS_BETTER.has(card.key);
  return (
    <li
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-definition`}
      title={card.definition}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs"
    >
      <p id={`${id}-title`} className="text-sm text-slate-500">
        {card.title}
      </p>
      <p className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 tabular-nums">
        {formatCardValue(card.unit, card.value)}
      </p>
      {change !== null ? (
        <p data-testid="metric-change" className={`mt-1 text-xs font-medium ${changeTone(change, good)}`}>
          <ChangeText change={change} />
        </p>
      ) : null}
      {children}
      <p id={`${id}-definition`} className="mt-2 text-xs leading-snug text-slate-500">
        {card.definition}
      </p>
    </li>
  );
}
