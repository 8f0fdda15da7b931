import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import {
  BROADCAST_ACTIONS,
  BROADCAST_MESSAGES,
  BROADCAST_PAGE_SIZE,
  isSpendCapPause,
  type BroadcastAction,
  type BroadcastRow,
} from '@herald/contracts';
import { primaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { PlusIcon, RefreshIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { SearchOnEnter } from '../../../components/search-on-enter';
import { WatchTutorialButton } from '../../../components/watch-tutorial-button';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { saveDownload } from '../../../lib/save-download';
import { broadcastsApi, useBroadcastActionMutation, useGetBroadcastsQuery } from '../api';
import type { BroadcastSort } from '../api';
import { BroadcastsPagination } from '../components/broadcasts-pagination';
import { BroadcastsTable } from '../components/broadcasts-table';
import { CancelBroadcastDialog } from '../components/cancel-broadcast-dialog';
import { RaiseSpendCapDialog } from '../components/raise-spend-cap-dialog';
import { DateRangeFilter, type DayRange } from '../components/date-range-filter';
import { SummaryCards } from '../components/summary-cards';
import { useExportBroadcastsMutation } from '../export-api';

/** While a broadcast is waiting or sending the page is re-read this often, so its figures fill in. */
export const LIVE_POLL_MS = 2000;

const LIVE_STATUSES = new Set(['sending', 'scheduled']);

/**
 * After sending, delivery and read statuses keep arriving from WhatsApp: a recent broadcast whose messages
 * have not all reported back is followed at a gentler pace, so its figures fill in without a reload.
 */
export const FOLLOW_POLL_MS = 5000;
const FOLLOW_FOR_MS = 24 * 60 * 60 * 1000;

function awaitingStatuses(row: BroadcastRow): boolean {
  const recent = Date.now() - Date.parse(row.scheduled) < FOLLOW_FOR_MS;
  return (
    recent && row.sent_percentage + row.handed_percentage > row.delivered_percentage + row.failed_percentage
  );
}

/** The browser's IANA time zone: the history's days are the user's days. */
const userTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Broadcast history (/broadcast). */
export function BroadcastHistoryPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<BroadcastSort>('latest');
  const [range, setRange] = useState<DayRange>({ from: '', to: '' });
  const [tz] = useState(userTimeZone);

  const args = { page, search, sort, ...range, tz, wabaId };
  // The cached page decides whether to poll: while one of its rows, or any broadcast of the account, is live.
  const cached = broadcastsApi.endpoints.getBroadcasts.useQueryState(args);
  const live =
    (cached.currentData?.results.some((row) => LIVE_STATUSES.has(row.status.toLowerCase())) ?? false) ||
    (cached.currentData?.totals?.sending ?? 0) > 0;
  const following = cached.currentData?.results.some(awaitingStatuses) ?? false;
  const { currentData, error, isFetching, refetch } = useGetBroadcastsQuery(args, {
    refetchOnMountOrArgChange: true,
    pollingInterval: live ? LIVE_POLL_MS : following ? FOLLOW_POLL_MS : 0,
  });

  const count = currentData?.count ?? 0;
  const pageCount = Math.ceil(count / BROADCAST_PAGE_SIZE);
  // A list that shrank under the current page: step back to its last page.
  useEffect(() => {
    if (currentData && page > 1 && page > pageCount) setPage(Math.max(1, pageCount));
  }, [currentData, page, pageCount]);

  const [runAction, action] = useBroadcastActionMutation();
  const [cancelling, setCancelling] = useState<BroadcastRow | null>(null);
  const [cancelFailure, setCancelFailure] = useState<string | null>(null);
  // Resume of a broadcast its spend cap paused asks for a higher cap (or none) first (decision 052).
  const [raising, setRaising] = useState<BroadcastRow | null>(null);
  const [raiseFailure, setRaiseFailure] = useState<string | null>(null);

  /**
   * Pause and resume act at once; cancel asks first, and so does resuming a broadcast paused at its spend cap
   * (the dialogs call back with confirmed = true, the latter with the new cap).
   */
  async function handleAction(
    row: BroadcastRow,
    chosen: BroadcastAction,
    confirmed = false,
    spendCap?: number | null,
  ) {
    if (chosen === 'cancel' && !confirmed) {
      setCancelFailure(null);
      setCancelling(row);
      return;
    }
    if (chosen === 'resume' && !confirmed && isSpendCapPause(row.status_reason)) {
      setRaiseFailure(null);
      setRaising(row);
      return;
    }
    try {
      await runAction({ id: row.id, action: chosen, spendCap }).unwrap();
      toast.success(`Broadcast ${BROADCAST_ACTIONS[chosen].done}`);
      setCancelling(null);
      setRaising(null);
    } catch (failure) {
      console.error(`Could not ${chosen} the broadcast`, failure);
      if (chosen === 'cancel') setCancelFailure(errorText(failure));
      else if (chosen === 'resume' && confirmed) setRaiseFailure(errorText(failure));
      else toast.error(errorText(failure));
    }
  }

  const [exportCsv, exporting] = useExportBroadcastsMutation();
  async function handleExport(chosen: DayRange) {
    applyRange(chosen);
    const result = await exportCsv({ search, sort, ...chosen, tz });
    if ('error' in result) toast.error(`Could not export the broadcasts: ${errorText(result.error)}`);
    else saveDownload(result.data.url, result.data.filename);
  }
  function applyRange(chosen: DayRange) {
    setRange(chosen);
    setPage(1);
  }

  const noAccount = error !== undefined && 'status' in error && error.status === 403 && wabaId === null;

  return (
    <>
      <PageHeader
        title="Broadcast History"
        description="Every broadcast of this account, with how far its messages got."
        actions={
          <>
            <WatchTutorialButton guide="broadcasts" />
            <Link to="/broadcast/new" className={primaryButtonClass}>
              <PlusIcon width={18} height={18} />
              New Broadcast
            </Link>
          </>
        }
      />

      <DateRangeFilter
        applied={range}
        onApply={applyRange}
        onExport={(chosen) => void handleExport(chosen)}
        exporting={exporting.isLoading}
        timeZone={tz}
      />
      <SummaryCards totals={currentData ? currentData.totals : undefined} />

      <section
        aria-labelledby="broadcast-list-title"
        className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs"
      >
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
          <div className="flex items-center gap-2">
            <h2 id="broadcast-list-title" className="text-base font-semibold text-slate-900">
              Broadcasts
            </h2>
            <button
              type="button"
              aria-label="Refresh"
              title="Refresh"
              onClick={() => void refetch()}
              className="rounded-lg p-1.5 text-slate-500 transition hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-emerald-600"
            >
              <RefreshIcon width={18} height={18} className={isFetching ? 'animate-spin' : ''} />
            </button>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <SearchOnEnter
              label="Search broadcasts"
              placeholder="Search and press Enter"
              text={searchText}
              onTextChange={setSearchText}
              onSearch={(text) => {
                setSearch(text);
                setPage(1);
              }}
              className="w-64"
            />
            <label className="flex items-center gap-2 text-sm text-slate-600">
              Sorted by
              <select
                value={sort}
                onChange={(event) => {
                  setSort(event.target.value as BroadcastSort);
                  setPage(1);
                }}
                className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
              >
                <option value="latest">Latest</option>
                <option value="oldest">Oldest</option>
              </select>
            </label>
          </div>
        </div>

        {error && !isFetching ? (
          <div className="p-4">
            <FormAlert>
              {noAccount
                ? BROADCAST_MESSAGES.noWaba
                : `Failed to load broadcasts from API: ${errorText(error)}`}
            </FormAlert>
          </div>
        ) : null}

        <BroadcastsTable
          rows={error && !currentData ? [] : currentData?.results}
          onAction={(row, chosen) => void handleAction(row, chosen)}
          busyId={action.isLoading ? (action.originalArgs?.id ?? null) : null}
        />
        <BroadcastsPagination page={page} pageCount={pageCount} onPage={setPage} />
      </section>
      {cancelling ? (
        <CancelBroadcastDialog
          row={cancelling}
          busy={action.isLoading}
          failure={cancelFailure}
          onConfirm={() => void handleAction(cancelling, 'cancel', true)}
          onClose={() => setCancelling(null)}
        />
      ) : null}
      {raising ? (
        <RaiseSpendCapDialog
          row={raising}
          busy={action.isLoading}
          failure={raiseFailure}
          onResume={(spendCap) => void handleAction(raising, 'resume', true, spendCap)}
          onClose={() => setRaising(null)}
        />
      ) : null}
    </>
  );
}
