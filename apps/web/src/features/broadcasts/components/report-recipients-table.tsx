import type { BroadcastRecipient, RecipientOutcome } from '@herald/contracts';
import { DataTable, type DataTableHeader } from '../../../components/data-table';
import { displayNumber } from '../../../lib/display-number';
import { formatDateTime } from '../../../lib/date-time';
import { OUTCOME_LABELS } from '../outcome-labels';
import { ReplyCell } from './reply-cell';

const OUTCOME_TONES: Record<RecipientOutcome, string> = {
  pending: 'bg-amber-50 text-amber-700 ring-amber-200',
  held: 'bg-yellow-50 text-yellow-800 ring-yellow-200',
  sent: 'bg-sky-50 text-sky-700 ring-sky-200',
  delivered: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  read: 'bg-violet-50 text-violet-700 ring-violet-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  limited: 'bg-rose-50 text-rose-700 ring-rose-200',
  not_on_whatsapp: 'bg-stone-100 text-stone-700 ring-stone-300',
  expired: 'bg-zinc-100 text-zinc-700 ring-zinc-300',
  // Not sent on purpose, not a failure: neutral.
  skipped: 'bg-slate-100 text-slate-700 ring-slate-300',
  unknown: 'bg-orange-50 text-orange-700 ring-orange-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-300',
};

const headersOf = (labels: string[]): readonly DataTableHeader[] =>
  labels.map((label) => ({ key: label, label }));
const COLUMNS = ['Name', 'Number', 'Outcome', 'Details', 'Last Update', 'Replied'];
const HEADERS = headersOf(COLUMNS);
/** A broadcast with a tracked link adds when each recipient first clicked it. */
const HEADERS_WITH_CLICKS = headersOf([...COLUMNS, 'Clicked']);

function RecipientRow({ recipient, clicks }: { recipient: BroadcastRecipient; clicks: boolean }) {
  return (
    <tr className="hover:bg-slate-50">
      <td className="px-3 py-3 whitespace-nowrap text-slate-900">
        {recipient.contact_name ?? <span className="text-slate-500 italic">Deleted contact</span>}
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700 tabular-nums">
        {displayNumber(recipient.whatsapp_number)}
      </td>
      <td className="px-3 py-3">
        <span
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${OUTCOME_TONES[recipient.outcome]}`}
        >
          {OUTCOME_LABELS[recipient.outcome]}
        </span>
      </td>
      {/* Meta's error titles are sentences: room enough to read them on a phone (the table scrolls). */}
      <td className="min-w-[14rem] px-3 py-3 text-slate-700">
        {recipient.error_code !== null ? (
          <span>
            <span className="font-medium text-red-700">{recipient.error_code}</span>
            {recipient.error_title ? ` · ${recipient.error_title}` : ''}
          </span>
        ) : (
          // Without a code: why the outcome is unknown, or a failure Herald found itself (an opt-out).
          (recipient.error_title ?? '—')
        )}
      </td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-600">
        {recipient.updated_at ? formatDateTime(recipient.updated_at) : '—'}
      </td>
      <td className="min-w-[10rem] px-3 py-3">
        <ReplyCell reply={recipient.reply} />
      </td>
      {clicks ? (
        <td className="px-3 py-3 whitespace-nowrap text-slate-600">
          {recipient.clicked_at ? (
            <time dateTime={recipient.clicked_at}>{formatDateTime(recipient.clicked_at)}</time>
          ) : (
            <span className="text-slate-500">—</span>
          )}
        </td>
      ) : null}
    </tr>
  );
}

/**
 * The report's recipients: each with its outcome, Meta's error for a failure, when it last moved and the first
 * reply; with a tracked link (`clicks`), when the recipient first clicked it.
 */
export function ReportRecipientsTable({
  rows,
  error,
  emptyText,
  clicks,
}: {
  rows: BroadcastRecipient[] | undefined;
  error: string | null;
  emptyText: string;
  clicks: boolean;
}) {
  return (
    <DataTable
      headers={clicks ? HEADERS_WITH_CLICKS : HEADERS}
      rows={rows}
      error={error}
      emptyText={emptyText}
      renderRow={(recipient) => <RecipientRow key={recipient.id} recipient={recipient} clicks={clicks} />}
    />
  );
}
