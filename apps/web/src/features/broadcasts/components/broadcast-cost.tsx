import { useSelector } from 'react-redux';
import { formatUsd, useGetBroadcastCostsQuery } from '../cost-api';
import { formatCount } from '../format';
import { MetaFigure } from './meta-figure';

type BroadcastCostProps = {
  id: number;
  wabaId: string | null;
  /** Asked again while statuses are still to come (the report polls then too). */
  polling: boolean;
  pollMs?: number;
};

/**
 * The delivery report's cost line: the billable messages WhatsApp's statuses named and their
 * cost at the rate card's rate for each one's market, category and day; free ones apart. Shown only once some
 * message has been priced: nothing is estimated here.
 */
export function BroadcastCost({ id, wabaId, polling, pollMs = 3000 }: BroadcastCostProps) {
  const { currentData } = useGetBroadcastCostsQuery(
    { ids: [id], wabaId },
    { pollingInterval: polling ? pollMs : 0 },
  );
  const cost = currentData?.[0];
  if (!cost || cost.billable + cost.free === 0) return null;
  return (
    <div className="mb-4 space-y-1 text-sm text-slate-700">
      <p role="status" aria-label="Cost">
        Cost: <strong className="font-semibold">{formatUsd(cost.cost)}</strong>
        <span className="text-slate-500">
          {' '}
          for {formatCount(cost.billable)} billable {cost.billable === 1 ? 'message' : 'messages'}
          {cost.free > 0 ? `, ${formatCount(cost.free)} free` : ''}
          {cost.unpriced > 0 ? `, ${formatCount(cost.unpriced)} not priced yet` : ''}
        </span>
      </p>
      <MetaFigure id={id} wabaId={wabaId} polling={polling} herald={cost} />
    </div>
  );
}

/**
 * The history's priced broadcasts of a page, by id (one request for the page), read again whenever the page's
 * delivery figures change (the list's own polling), not on a timer of their own; empty until answered.
 */
export function useBroadcastCosts(
  rows: { id: number; sent_percentage: number; delivered_percentage: number; read_percentage: number }[],
): Map<number, BroadcastCostFigures> {
  const ids = rows.map((row) => row.id);
  const version = rows
    .map((row) => `${row.id}:${row.sent_percentage}:${row.delivered_percentage}:${row.read_percentage}`)
    .join(',');
  // The account in the store's shape, read here so the table needs no new prop (the request's key includes it).
  const wabaId = useSelector(
    (state: { waba: { selectedWabaAccount?: { waba_id: string } | null } }) =>
      state.waba.selectedWabaAccount?.waba_id ?? null,
  );
  const { currentData } = useGetBroadcastCostsQuery({ ids, wabaId, version }, { skip: ids.length === 0 });
  return new Map((currentData ?? []).map((cost) => [cost.broadcast_id, cost]));
}

type BroadcastCostFigures = { cost: number; billable: number; free: number };

/** Under a history row's recipients: its billable messages' cost, once WhatsApp has priced any. */
export function BillableLine({ cost }: { cost: BroadcastCostFigures | undefined }) {
  if (!cost || cost.billable + cost.free === 0) return null;
  return (
    // Wraps between the cost and the count (not inside either) so that the history's columns fit.
    <span className="block text-xs text-slate-500">
      <span className="whitespace-nowrap">{formatUsd(cost.cost)} ·</span>{' '}
      <span className="whitespace-nowrap">{formatCount(cost.billable)} billable</span>
    </span>
  );
}
