import {
  CLICK_DEFINITIONS,
  RECIPIENT_OUTCOME_NAMES,
  REPLY_DEFINITIONS,
  type BroadcastReport,
  type RetargetOutcome,
} from '@herald/contracts';
import { formatCount } from '../format';
import { OUTCOME_LABELS } from '../outcome-labels';

export const NOT_READ_LABEL = 'Not read';
export const outcomeLabel = (outcome: RetargetOutcome) =>
  outcome === 'not_read' ? NOT_READ_LABEL : OUTCOME_LABELS[outcome];

/** The report's filters: an outcome (null for all), Replied, and Clicked (true) or Not clicked (false). */
export type ReportFilter = {
  outcome: RetargetOutcome | null;
  replied: boolean;
  clicked: boolean | null;
};

export const NO_FILTER: ReportFilter = { outcome: null, replied: false, clicked: null };

function FilterButton({
  pressed,
  label,
  count,
  title,
  onClick,
}: {
  pressed: boolean;
  label: string;
  count: number | null;
  title?: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      title={title}
      onClick={onClick}
      className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset transition ${
        pressed
          ? 'bg-emerald-700 text-white ring-emerald-600'
          : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
      }`}
    >
      {label}
      {count !== null ? ` · ${formatCount(count)}` : ''}
    </button>
  );
}

/**
 * The report's filter buttons with their counts: All (clears every filter), Replied, then, for a broadcast with
 * a tracked link (`clicks`), Clicked and Not clicked, each outcome and Not read. An outcome combines with Replied
 * and the click filters.
 */
export function ReportFilters({
  filter,
  onChange,
  report,
  total,
  clicks,
}: {
  filter: ReportFilter;
  onChange: (next: ReportFilter) => void;
  /** The report as last answered; undefined while it loads (no counts then). */
  report: BroadcastReport | undefined;
  total: number | null;
  clicks: boolean;
}) {
  const { outcome, replied, clicked } = filter;
  const clickedCount = report?.clicked ?? 0;
  const outcomeButton = (value: RetargetOutcome, label: string, count: number | null) => (
    <FilterButton
      key={value}
      pressed={outcome === value}
      label={label}
      count={count}
      onClick={() => onChange({ ...filter, outcome: value })}
    />
  );
  const clickButton = (value: boolean, label: string, count: number | null, title?: string) => (
    <FilterButton
      pressed={clicked === value}
      label={label}
      count={count}
      title={title}
      onClick={() => onChange({ ...filter, clicked: clicked === value ? null : value })}
    />
  );
  return (
    <div role="group" aria-label="Filter by outcome" className="mb-4 flex flex-wrap gap-2">
      <FilterButton
        pressed={outcome === null && !replied && clicked === null}
        label="All"
        count={total}
        onClick={() => onChange(NO_FILTER)}
      />
      <FilterButton
        pressed={replied}
        label="Replied"
        count={report ? report.replied : null}
        title={REPLY_DEFINITIONS.replied}
        onClick={() => onChange({ ...filter, replied: !replied })}
      />
      {clicks ? clickButton(true, 'Clicked', report ? clickedCount : null, CLICK_DEFINITIONS.clicked) : null}
      {clicks
        ? clickButton(false, 'Not clicked', total !== null ? Math.max(0, total - clickedCount) : null)
        : null}
      {/* An outcome a server from before it does not count (skipped) had no recipients there. */}
      {RECIPIENT_OUTCOME_NAMES.map((name) =>
        outcomeButton(name, OUTCOME_LABELS[name], report ? (report.outcomes[name] ?? 0) : null),
      )}
      {/* Who got the message but has not read it, the usual audience of a reminder. */}
      {outcomeButton(
        'not_read',
        NOT_READ_LABEL,
        report ? report.outcomes.sent + report.outcomes.delivered : null,
      )}
    </div>
  );
}

/** What the table says when the filters leave no recipient. */
export function reportEmptyText({ outcome, replied, clicked }: ReportFilter): string {
  if (clicked !== null) {
    if (outcome || replied) return 'No recipients match these filters.';
    return clicked ? 'No recipient has clicked the link yet.' : 'Every recipient has clicked the link.';
  }
  if (replied)
    return outcome
      ? `No recipients with the outcome ${outcomeLabel(outcome)} replied.`
      : 'No recipient has replied yet.';
  return outcome ? `No recipients with the outcome ${outcomeLabel(outcome)}.` : 'No data available';
}
