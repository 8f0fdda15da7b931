import {
  BROADCAST_ACTIONS,
  FOLLOW_UP_AUDIENCE,
  broadcastActionsFor,
  waitingForLimitLine,
  type BroadcastAction,
  type BroadcastRow,
} from '@herald/contracts';
import { Link } from 'react-router';
import { DataTable, type DataTableHeader } from '../../../components/data-table';
import { WrappableName } from '../../../components/wrappable-name';
import { formatDateTime } from '../../../lib/date-time';
import { formatClockTime, formatCount, formatPercent, formatStatus } from '../format';
import { BillableLine, useBroadcastCosts } from './broadcast-cost';
import { ALL_HANDED_NOTE, ALL_HANDED_STATUS, HANDED_TO_WHATSAPP, outcomeInSentence } from '../outcome-labels';

type BroadcastsTableProps = {
  /** undefined while the first page loads. */
  rows: BroadcastRow[] | undefined;
  /** Pause, resume or cancel a row; the page decides whether to ask first. */
  onAction: (row: BroadcastRow, action: BroadcastAction) => void;
  /** The row whose action is in flight: its buttons are disabled. */
  busyId?: number | null;
};

const COLUMNS = [
  'Name',
  'Template',
  'Scheduled',
  'Recipients',
  'Sent %',
  'Delivered %',
  'Read %',
  'Replied %',
  'Click %',
  'Failed %',
  'Status',
  'Actions',
];

// Eleven columns fitted beside the navigation at 1440 px only because the wide ones may wrap: the headers
// ('Delivered %' on two lines), the template's name (after each underscore) and the notes under the figures. With
// Click % the twelfth, the frame scrolls sideways where they still do not fit.
const HEADERS: readonly DataTableHeader[] = COLUMNS.map((column) => ({
  key: column,
  label: column,
  className:
    'px-2 py-3 text-left align-bottom text-xs font-semibold text-slate-600 uppercase first:pl-4 last:pr-4',
}));

const STATUS_TONES: Record<string, string> = {
  scheduled: 'bg-amber-50 text-amber-700 ring-amber-200',
  sending: 'bg-sky-50 text-sky-700 ring-sky-200',
  paused: 'bg-violet-50 text-violet-700 ring-violet-200',
  all_handed: 'bg-sky-50 text-sky-700 ring-sky-200',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-300',
  failed: 'bg-red-50 text-red-700 ring-red-200',
};

/** Broadcast history: the table, with a live progress bar on broadcasts being sent. */
export function BroadcastsTable({ rows, onAction, busyId = null }: BroadcastsTableProps) {
  const costs = useBroadcastCosts(rows ?? []);
  return (
    <DataTable
      headers={HEADERS}
      rows={rows}
      emptyText="No data available"
      skeletonRows={3}
      frameClassName="overflow-x-auto"
      renderRow={(row) => (
        <BroadcastTableRow
          key={row.id}
          row={row}
          onAction={onAction}
          busy={busyId === row.id}
          cost={costs.get(row.id)}
        />
      )}
    />
  );
}

/** Under a follow-up's name: the broadcast it follows up (a link to its report) and whom it goes to. */
function FollowUpOfLine({ parent }: { parent: NonNullable<BroadcastRow['follow_up_of']> }) {
  // A newer server's audience this web does not know is left unsaid rather than misnamed.
  const audience = (FOLLOW_UP_AUDIENCE as Partial<Record<string, string>>)[parent.unless];
  return (
    <span data-testid="follow-up-of" className="mt-0.5 block text-xs font-normal text-slate-500">
      Follow-up of{' '}
      <Link
        to={`/broadcast/${parent.id}`}
        title="Delivery report"
        className="text-slate-600 hover:text-emerald-800 hover:underline"
      >
        {parent.name}
      </Link>
      {audience ? ` · to those who ${audience}` : null}
    </span>
  );
}

function BroadcastTableRow({
  row,
  onAction,
  busy,
  cost,
}: {
  row: BroadcastRow;
  onAction: BroadcastsTableProps['onAction'];
  busy: boolean;
  cost?: Parameters<typeof BillableLine>[0]['cost'];
}) {
  const status = row.status.toLowerCase();
  // Decision 036: a pause that holds nothing back is not called 'Paused'.
  const allHanded = status === 'paused' && row.all_handed;
  // A server from before the expired outcome leaves it out: none expired then.
  const expired = row.expired_percentage ?? 0;
  // Likewise for the frequency cap: none skipped by a server from before it.
  const skipped = row.skipped_percentage ?? 0;
  // How far the sending has gone: every recipient handed to WhatsApp or sent (or further), failed, limited, not
  // on WhatsApp, expired or skipped, or of unknown outcome.
  const progress = Math.min(
    100,
    row.sent_percentage +
      row.handed_percentage +
      row.failed_percentage +
      row.limited_percentage +
      row.not_on_whatsapp_percentage +
      expired +
      skipped +
      row.unknown_percentage,
  );
  // Apart from failed (WhatsApp's rules, not the broadcast's fault), but not delivered either: said under it.
  const undelivered = [
    row.limited_percentage > 0
      ? `+${formatPercent(row.limited_percentage)} ${outcomeInSentence('limited')}`
      : null,
    row.not_on_whatsapp_percentage > 0
      ? `+${formatPercent(row.not_on_whatsapp_percentage)} ${outcomeInSentence('not_on_whatsapp')}`
      : null,
    expired > 0 ? `+${formatPercent(expired)} ${outcomeInSentence('expired')}` : null,
    // Not sent at all, on purpose: said here too, so the figures add up, but never counted as failed.
    skipped > 0 ? `+${formatPercent(skipped)} ${outcomeInSentence('skipped')}` : null,
  ].filter((line) => line !== null);
  const statusNote =
    status === 'sending' && row.waiting_until
      ? waitingForLimitLine(formatClockTime(row.waiting_until))
      : status === 'paused' || status === 'failed'
        ? [allHanded ? ALL_HANDED_NOTE : null, row.status_reason].filter(Boolean).join(' ') || null
        : // Sending: the server gives a reason only while it holds (WhatsApp's servers not answering).
          status === 'sending'
          ? row.status_reason
          : null;
  return (
    <tr className="hover:bg-slate-50">
      <td className="max-w-[14rem] py-3 pr-2 pl-4 font-medium break-words text-slate-900">
        <Link
          to={`/broadcast/${row.id}`}
          title="Delivery report"
          className="hover:text-emerald-800 hover:underline"
        >
          {row.name}
        </Link>
        {row.follow_up_of ? <FollowUpOfLine parent={row.follow_up_of} /> : null}
      </td>
      <td className="px-2 py-3 text-slate-600">
        <WrappableName name={row.template_name} />
        {row.phone_number ? (
          <span className="block text-xs text-slate-500">
            from <span className="whitespace-nowrap">{row.phone_number}</span>
          </span>
        ) : null}
      </td>
      <td className="px-2 py-3 text-slate-600">
        <time dateTime={row.scheduled}>{formatDateTime(row.scheduled)}</time>
      </td>
      <td className="px-2 py-3 text-slate-600 tabular-nums">
        {formatCount(row.total_recipients)}
        <BillableLine cost={cost} />
      </td>
      <td className="px-2 py-3 text-slate-600 tabular-nums">
        {formatPercent(row.sent_percentage)}
        {row.handed_percentage > 0 ? (
          <span className="block text-xs text-slate-500">
            +{formatPercent(row.handed_percentage)} {HANDED_TO_WHATSAPP}
          </span>
        ) : null}
      </td>
      <td className="px-2 py-3 text-slate-600 tabular-nums">{formatPercent(row.delivered_percentage)}</td>
      <td className="px-2 py-3 text-slate-600 tabular-nums">{formatPercent(row.read_percentage)}</td>
      {/* Recipients who replied (a message, a press or a reaction), of all the recipients. */}
      <td className="px-2 py-3 text-slate-600 tabular-nums">{formatPercent(row.replied_percentage)}</td>
      {/* Recipients who clicked its tracked link, of all the recipients; '—' for a broadcast without one. */}
      <td className="px-2 py-3 text-slate-600 tabular-nums">
        {row.clicked_percentage === null || row.clicked_percentage === undefined
          ? '—'
          : formatPercent(row.clicked_percentage)}
      </td>
      <td className="px-2 py-3 text-slate-600 tabular-nums">
        {formatPercent(row.failed_percentage)}
        {undelivered.map((line) => (
          <span key={line} className="block text-xs text-slate-500">
            {line}
          </span>
        ))}
      </td>
      <td className="px-2 py-3">
        <span
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${
            STATUS_TONES[allHanded ? 'all_handed' : status] ?? 'bg-slate-50 text-slate-700 ring-slate-200'
          }`}
        >
          {allHanded ? ALL_HANDED_STATUS : formatStatus(row.status)}
        </span>
        {statusNote ? (
          <p className="mt-1 max-w-[16rem] min-w-[11rem] text-xs text-slate-600">{statusNote}</p>
        ) : null}
        {status === 'sending' ? (
          <div
            role="progressbar"
            aria-label={`Sending progress of ${row.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress)}
            aria-valuetext={formatPercent(progress)}
            className="mt-1.5 h-1.5 w-24 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full rounded-full bg-sky-500 transition-[width] duration-700"
              style={{ width: `${progress}%` }}
            />
          </div>
        ) : null}
      </td>
      <td className="py-3 pr-4 pl-2 whitespace-nowrap">
        <div className="flex gap-1.5">
          {/* A finished broadcast has nothing left to pause, resume or cancel: a dash, as other empty cells. */}
          {broadcastActionsFor(row.status).length === 0 ? <span className="text-slate-400">—</span> : null}
          {broadcastActionsFor(row.status).map((action) => (
            <button
              key={action}
              type="button"
              disabled={busy}
              aria-label={`${BROADCAST_ACTIONS[action].label} ${row.name}`}
              onClick={() => onAction(row, action)}
              className={`rounded-md px-2 py-1 text-xs font-medium ring-1 ring-inset disabled:opacity-50 ${
                action === 'cancel'
                  ? 'text-red-700 ring-red-200 hover:bg-red-50'
                  : 'text-slate-700 ring-slate-300 hover:bg-slate-100'
              }`}
            >
              {BROADCAST_ACTIONS[action].label}
            </button>
          ))}
        </div>
      </td>
    </tr>
  );
}
