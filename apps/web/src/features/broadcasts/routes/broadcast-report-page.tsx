import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'react-router';
import {
  BROADCAST_REPORT_PAGE_SIZE,
  RECIPIENT_OUTCOME_NAMES,
  REPLY_DEFINITIONS,
  type BroadcastRecipient,
  type RecipientOutcome,
  type RetargetOutcome,
} from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { DataTable, type DataTableHeader } from '../../../components/data-table';
import { DownloadIcon, PlusIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { PreviousNext } from '../../../components/previous-next';
import { useAppSelector } from '../../../lib/store-hooks';
import { displayNumber } from '../../../lib/display-number';
import { errorText } from '../../../lib/error-text';
import { saveDownload } from '../../../lib/save-download';
import { broadcastsApi, useGetBroadcastReportQuery } from '../api';
import { BroadcastCost } from '../components/broadcast-cost';
import { FailureReasons } from '../components/failure-reasons';
import { ReplyCell } from '../components/reply-cell';
import { ReportAudience } from '../components/report-audience';
import { useExportBroadcastReportMutation } from '../export-api';
import { formatCount, formatDateTime, formatPercent, formatStatus } from '../format';
import { OUTCOME_LABELS } from '../outcome-labels';

/** While messages are still on their way the report is re-read this often, so outcomes fill in. */
export const REPORT_POLL_MS = 5000;

const OUTCOME_TONES: Record<RecipientOutcome, string> = {
  pending: 'bg-amber-50 text-amber-700 ring-amber-200',
  held: 'bg-yellow-50 text-yellow-800 ring-yellow-200',
  sent: 'bg-sky-50 text-sky-700 ring-sky-200',
  delivered: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  read: 'bg-violet-50 text-violet-700 ring-violet-200',
  failed: 'bg-red-50 text-red-700 ring-red-200',
  limited: 'bg-rose-50 text-rose-700 ring-rose-200',
  not_on_whatsapp: 'bg-stone-100 text-stone-700 ring-stone-300',
  unknown: 'bg-orange-50 text-orange-700 ring-orange-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-300',
};

const HEADERS: readonly DataTableHeader[] = [
  'Name',
  'Number',
  'Outcome',
  'Details',
  'Last Update',
  'Replied',
].map((label) => ({ key: label, label }));

function RecipientRow({ recipient }: { recipient: BroadcastRecipient }) {
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
    </tr>
  );
}

const NOT_READ_LABEL = 'Not read';
const outcomeLabel = (outcome: RetargetOutcome) =>
  outcome === 'not_read' ? NOT_READ_LABEL : OUTCOME_LABELS[outcome];

/**
 * The report's filter as its API takes it ('outcome=failed&replied=true'): New broadcast reads it back to freeze
 * the same recipients.
 */
export function reportFilterValue(outcome: RetargetOutcome | null, replied: boolean): string {
  const query = new URLSearchParams();
  if (outcome) query.set('outcome', outcome);
  if (replied) query.set('replied', 'true');
  return query.toString();
}

/**
 * A broadcast's delivery report (/broadcast/:id): how many recipients reached each outcome, and every
 * recipient with its outcome and, for a failure, Meta's error code and title (for an unknown outcome, why it
 * is unknown); filtered by outcome.
 */
export function BroadcastReportPage() {
  const id = Number(useParams().id);
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [outcome, setOutcome] = useState<RetargetOutcome | null>(null);
  const [replied, setReplied] = useState(false);
  const [page, setPage] = useState(1);
  const args = { id, page, outcome, replied, wabaId };
  // The cached report decides whether to poll: while some of its messages are still on their way, or held by
  // WhatsApp until a later status settles them.
  const cached = broadcastsApi.endpoints.getBroadcastReport.useQueryState(args);
  const outcomes = cached.currentData?.outcomes;
  const pending = (outcomes?.pending ?? 0) + (outcomes?.held ?? 0) > 0;
  const { currentData, error } = useGetBroadcastReportQuery(args, {
    skip: !Number.isInteger(id) || id < 1,
    pollingInterval: pending ? REPORT_POLL_MS : 0,
  });

  const total = currentData
    ? Object.values(currentData.outcomes).reduce((sum, count) => sum + count, 0)
    : null;
  const pages = currentData ? Math.max(1, Math.ceil(currentData.count / BROADCAST_REPORT_PAGE_SIZE)) : 1;
  const choose = (next: RetargetOutcome | null) => {
    setOutcome(next);
    // 'All' is everyone: it clears the Replied filter too; an outcome combines with it.
    if (next === null) setReplied(false);
    setPage(1);
  };
  const [exportCsv, exporting] = useExportBroadcastReportMutation();
  async function handleExport() {
    const result = await exportCsv({ id, outcome, replied });
    if ('error' in result) toast.error(`Could not export the recipients: ${errorText(result.error)}`);
    else saveDownload(result.data.url, result.data.filename);
  }
  const filter = reportFilterValue(outcome, replied);
  const delivered = currentData ? currentData.outcomes.delivered + currentData.outcomes.read : 0;
  const filterButton = (value: RetargetOutcome | null, label: string, count: number | null) => (
    <button
      key={value ?? 'all'}
      type="button"
      aria-pressed={outcome === value && (value !== null || !replied)}
      onClick={() => choose(value)}
      className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset transition ${
        outcome === value && (value !== null || !replied)
          ? 'bg-emerald-700 text-white ring-emerald-600'
          : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
      }`}
    >
      {label}
      {count !== null ? ` · ${formatCount(count)}` : ''}
    </button>
  );

  return (
    <>
      <PageHeader
        title={currentData ? `Delivery Report: ${currentData.broadcast.name}` : 'Delivery Report'}
        description={
          currentData
            ? `Template ${currentData.broadcast.template_name} · ${formatStatus(currentData.broadcast.status)} · ${formatCount(total ?? 0)} recipients`
            : 'Every recipient of the broadcast, with how far its message got.'
        }
        actions={
          <Link to="/broadcast" className="text-sm font-medium text-emerald-700 hover:underline">
            Back to Broadcast History
          </Link>
        }
      />
      {currentData ? (
        <p className="mb-4 text-sm text-slate-700" title={REPLY_DEFINITIONS.reply_rate}>
          Reply rate: <strong className="font-semibold">{formatPercent(currentData.reply_rate)}</strong>
          <span className="text-slate-500">
            {' '}
            ({formatCount(currentData.replied)} of {formatCount(delivered)} delivered replied)
          </span>
        </p>
      ) : null}
      {currentData ? <BroadcastCost id={id} wabaId={wabaId} polling={pending} /> : null}
      {currentData?.broadcast.status === 'scheduled' ? (
        <ReportAudience
          scheduled={currentData.broadcast.scheduled}
          audience={currentData.broadcast.audience}
        />
      ) : null}
      {currentData ? <FailureReasons reasons={currentData.failure_reasons} /> : null}
      <div role="group" aria-label="Filter by outcome" className="mb-4 flex flex-wrap gap-2">
        {filterButton(null, 'All', total)}
        <button
          type="button"
          aria-pressed={replied}
          title={REPLY_DEFINITIONS.replied}
          onClick={() => {
            setReplied(!replied);
            setPage(1);
          }}
          className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset transition ${
            replied
              ? 'bg-emerald-700 text-white ring-emerald-600'
              : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
          }`}
        >
          Replied{currentData ? ` · ${formatCount(currentData.replied)}` : ''}
        </button>
        {RECIPIENT_OUTCOME_NAMES.map((name) =>
          filterButton(name, OUTCOME_LABELS[name], currentData?.outcomes[name] ?? null),
        )}
        {/* Who got the message but has not read it, the usual audience of a reminder. */}
        {filterButton(
          'not_read',
          NOT_READ_LABEL,
          currentData ? currentData.outcomes.sent + currentData.outcomes.delivered : null,
        )}
      </div>
      <div className="mb-4 flex flex-wrap items-center justify-end gap-2">
        {filter && currentData && currentData.count > 0 ? (
          <Link
            to={`/broadcast/new?retarget=${id}&filter=${encodeURIComponent(filter)}`}
            className={primaryButtonClass}
          >
            <PlusIcon width={16} height={16} />
            New broadcast to these recipients
          </Link>
        ) : null}
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={!currentData || exporting.isLoading}
          onClick={() => void handleExport()}
        >
          <DownloadIcon width={16} height={16} />
          {exporting.isLoading ? 'Exporting...' : 'Export'}
        </button>
      </div>
      <DataTable
        headers={HEADERS}
        rows={currentData?.results}
        error={error ? errorText(error) : null}
        emptyText={
          replied
            ? outcome
              ? `No recipients with the outcome ${outcomeLabel(outcome)} replied.`
              : 'No recipient has replied yet.'
            : outcome
              ? `No recipients with the outcome ${outcomeLabel(outcome)}.`
              : 'No data available'
        }
        renderRow={(recipient) => <RecipientRow key={recipient.id} recipient={recipient} />}
      />
      {pages > 1 ? (
        <nav aria-label="Pagination" className="mt-4 flex items-center justify-end gap-3 text-sm">
          <PreviousNext
            page={page}
            hasPrevious={page > 1}
            hasNext={Boolean(currentData?.next)}
            onPage={setPage}
          >
            <span className="text-slate-600">
              Page {page} of {pages}
            </span>
          </PreviousNext>
        </nav>
      ) : null}
    </>
  );
}
