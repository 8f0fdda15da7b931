import type { MetaBroadcastFigure } from '@herald/contracts';
import { serverMessage } from '../../../lib/server-message';
import { formatUsd } from '../cost-api';
import { formatCount } from '../format';
import { useGetMetaBroadcastFigureQuery } from '../meta-figure-api';

type HeraldFigures = { billable: number; cost: number };

type MetaFigureProps = {
  id: number;
  wabaId: string | null;
  /** Statuses are still to come: Meta is asked again now and then (and once more when they stop). */
  polling: boolean;
  herald: HeraldFigures;
  pollMs?: number;
};

/** Below what the page shows (4 decimals): a difference Meta's rounding alone could make is no disagreement. */
const COST_TOLERANCE = 0.00005;

function formatMoney(amount: number, currency: string | null): string {
  if (!currency || currency === 'USD') return formatUsd(amount);
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 4 }).format(
    amount,
  );
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Why Meta's figure may differ from Herald's, from what the answer says about the range. */
export function disagreementReasons(meta: MetaBroadcastFigure, herald: HeraldFigures): string[] {
  const reasons: string[] = [];
  if (meta.overlapping.messages > 0) {
    reasons.push(
      `${plural(meta.overlapping.messages, 'message', 'messages')} of ${plural(meta.overlapping.broadcasts, 'other broadcast', 'other broadcasts')} from this number were delivered in the same time: Meta counts by number and time, not by broadcast.`,
    );
  }
  if (meta.delivered_billable < herald.billable) {
    reasons.push(
      `Meta bills delivered messages only: ${formatCount(meta.delivered_billable)} of Herald’s ${formatCount(herald.billable)} billable messages are delivered so far.`,
    );
  }
  if (meta.currency && meta.currency !== 'USD') {
    reasons.push(`Meta’s figure is in ${meta.currency}, Herald’s cost in USD.`);
  }
  reasons.push('Meta’s analytics trail its deliveries and may catch up later.');
  reasons.push('Test sends and messages sent outside Herald from this number count at Meta too.');
  return reasons;
}

function disagrees(meta: MetaBroadcastFigure, herald: HeraldFigures): boolean {
  if (meta.volume !== herald.billable) return true;
  // Another currency's amount cannot be set against Herald's USD: only the counts are compared then.
  if (meta.cost === null || (meta.currency !== null && meta.currency !== 'USD')) return false;
  return Math.abs(meta.cost - herald.cost) >= COST_TOLERANCE;
}

/**
 * "Meta's figure" beside Herald's cost: what Meta's pricing_analytics says the broadcast's
 * number was billed over the broadcast's time range, and a note when it disagrees with Herald's, with the
 * reasons it may (decision 053). Nothing is shown before Meta has answered, and no figure is made up.
 */
export function MetaFigure({ id, wabaId, polling, herald, pollMs = 15_000 }: MetaFigureProps) {
  const version = `${herald.billable}:${herald.cost}:${polling}`;
  const { currentData, error } = useGetMetaBroadcastFigureQuery(
    { id, wabaId, version },
    { pollingInterval: polling ? pollMs : 0 },
  );
  if (error && !currentData) {
    return (
      <p role="status" aria-label="Meta's figure" className="text-slate-500">
        Meta’s figure: not available
        {serverMessage(error) ? ` (${serverMessage(error)})` : ''}
      </p>
    );
  }
  if (!currentData || currentData.volume === null) return null;
  const meta = currentData;
  return (
    <>
      <p role="status" aria-label="Meta's figure">
        Meta’s figure:{' '}
        {meta.cost === null ? null : (
          <strong className="font-semibold">{formatMoney(meta.cost, meta.currency)} </strong>
        )}
        <span className="text-slate-500">
          {meta.cost === null ? '' : 'for '}
          {plural(meta.volume ?? 0, 'billable message', 'billable messages')} delivered from this number
          {meta.cost === null ? ' (Meta gives no cost to businesses billed through a partner)' : ''}
        </span>
      </p>
      {disagrees(meta, herald) ? (
        <div
          role="note"
          aria-label="Meta's figure differs"
          className="rounded-md bg-amber-50 p-3 text-amber-800 ring-1 ring-amber-200 ring-inset"
        >
          <p className="font-medium">Meta’s figure differs from Herald’s. Why it may:</p>
          <ul className="mt-1 list-disc pl-5">
            {disagreementReasons(meta, herald).map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
