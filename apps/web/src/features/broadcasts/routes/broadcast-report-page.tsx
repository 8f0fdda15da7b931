import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useParams } from 'react-router';
import { BROADCAST_REPORT_PAGE_SIZE, type RetargetOutcome } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { DownloadIcon, PlusIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { PreviousNext } from '../../../components/previous-next';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { saveDownload } from '../../../lib/save-download';
import { broadcastsApi, useGetBroadcastReportQuery } from '../api';
import { BroadcastCost } from '../components/broadcast-cost';
import { FailureReasons } from '../components/failure-reasons';
import { ReportAudience, ReportSegment } from '../components/report-audience';
import { NO_FILTER, ReportFilters, reportEmptyText, type ReportFilter } from '../components/report-filters';
import { ReportRates } from '../components/report-rates';
import { ReportRecipientsTable } from '../components/report-recipients-table';
import { useExportBroadcastReportMutation } from '../export-api';
import { formatCount, formatStatus } from '../format';

/** While messages are still on their way the report is re-read this often, so outcomes fill in. */
export const REPORT_POLL_MS = 5000;

/**
 * The report's filter as its API takes it ('outcome=failed&replied=true&clicked=false'): New broadcast reads it
 * back to freeze the same recipients.
 */
export function reportFilterValue(
  outcome: RetargetOutcome | null,
  replied: boolean,
  clicked: boolean | null = null,
): string {
  const query = new URLSearchParams();
  if (outcome) query.set('outcome', outcome);
  if (replied) query.set('replied', 'true');
  if (clicked !== null) query.set('clicked', String(clicked));
  return query.toString();
}

/** The retarget link of a report filter. */
const retargetLink = (id: number, filter: string) =>
  `/broadcast/new?retarget=${id}&filter=${encodeURIComponent(filter)}`;
/** Those who did not click the tracked link: the usual audience of a follow-up. */
const NOT_CLICKED_FILTER = reportFilterValue(null, false, false);

/**
 * A broadcast's delivery report (/broadcast/:id): how many recipients reached each outcome, and every
 * recipient with its outcome and, for a failure, Meta's error code and title (for an unknown outcome, why it
 * is unknown); filtered by outcome, reply and, with a tracked link, click.
 */
export function BroadcastReportPage() {
  const id = Number(useParams().id);
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [filter, setFilter] = useState<ReportFilter>(NO_FILTER);
  const { outcome, replied, clicked } = filter;
  const [page, setPage] = useState(1);
  const args = { id, page, outcome, replied, clicked, wabaId };
  // The cached report decides whether to poll: while some of its messages are still on their way, or held by
  // WhatsApp until a later status settles them.
  const cached = broadcastsApi.endpoints.getBroadcastReport.useQueryState(args);
  const outcomes = cached.currentData?.outcomes;
  const pending = (outcomes?.pending ?? 0) + (outcomes?.held ?? 0) > 0;
  const { currentData, data, error } = useGetBroadcastReportQuery(args, {
    skip: !Number.isInteger(id) || id < 1,
    pollingInterval: pending ? REPORT_POLL_MS : 0,
  });

  const total = currentData
    ? Object.values(currentData.outcomes).reduce((sum, count) => sum + count, 0)
    : null;
  // A broadcast with a tracked link: the Clicked column, filters, rate and retarget; none of them without one.
  // Read from the last answer for this broadcast, so the click filters stay while another filter's page loads.
  const clicks = data?.broadcast.id === id && (data.broadcast.link_destination ?? null) !== null;
  const notClicked = currentData && total !== null ? total - (currentData.clicked ?? 0) : 0;
  const pages = currentData ? Math.max(1, Math.ceil(currentData.count / BROADCAST_REPORT_PAGE_SIZE)) : 1;
  const choose = (next: ReportFilter) => {
    setFilter(next);
    setPage(1);
  };
  const [exportCsv, exporting] = useExportBroadcastReportMutation();
  async function handleExport() {
    const result = await exportCsv({ id, outcome, replied, clicked });
    if ('error' in result) toast.error(`Could not export the recipients: ${errorText(result.error)}`);
    else saveDownload(result.data.url, result.data.filename);
  }
  const filterValue = reportFilterValue(outcome, replied, clicked);

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
      {currentData ? <ReportRates report={currentData} /> : null}
      {currentData ? <BroadcastCost id={id} wabaId={wabaId} polling={pending} /> : null}
      {currentData?.broadcast.status === 'scheduled' ? (
        <ReportAudience
          scheduled={currentData.broadcast.scheduled}
          audience={currentData.broadcast.audience}
        />
      ) : currentData ? (
        <ReportSegment audience={currentData.broadcast.audience} />
      ) : null}
      {currentData ? <FailureReasons reasons={currentData.failure_reasons} /> : null}
      <ReportFilters filter={filter} onChange={choose} report={currentData} total={total} clicks={clicks} />
      <div className="mb-4 flex flex-wrap items-center justify-end gap-2">
        {filterValue && currentData && currentData.count > 0 ? (
          <Link to={retargetLink(id, filterValue)} className={primaryButtonClass}>
            <PlusIcon width={16} height={16} />
            New broadcast to these recipients
          </Link>
        ) : null}
        {clicks && notClicked > 0 && filterValue !== NOT_CLICKED_FILTER ? (
          <Link to={retargetLink(id, NOT_CLICKED_FILTER)} className={secondaryButtonClass}>
            <PlusIcon width={16} height={16} />
            New broadcast to those who did not click
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
      <ReportRecipientsTable
        rows={currentData?.results}
        error={error ? errorText(error) : null}
        emptyText={reportEmptyText(filter)}
        clicks={clicks}
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
