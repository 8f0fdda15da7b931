import { useState, type ReactNode } from 'react';
import type { DashboardResponse } from '@herald/contracts';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { secondaryButtonClass } from '../../../components/button-classes';
import { CalendarIcon, DownloadIcon, RefreshIcon } from '../../../components/icons';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { useExportDashboardMutation, useGetDashboardQuery } from '../api';
import {
  EngagementRateChart,
  MessageOverviewChart,
  MessageTypesChart,
  ResponseTimeChart,
} from '../components/dashboard-charts';
import { ClickLine } from '../components/click-line';
import { ExpiredLine } from '../components/expired-line';
import { MetricCard } from '../components/metric-card';
import { RecentActivity } from '../components/recent-activity';
import { defaultRange, rangeProblem, userTimeZone, type DayRange } from '../date-range';

const inputClass =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-700 focus:border-emerald-500 focus:ring-1 focus:ring-emerald-500 focus:outline-none';

/** Saves `url` as `filename` through a temporary link, then lets the browser drop the blob. */
function download(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has handed the blob to the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The selected account's figures for a range of local days (default the last 30, in the user's time
 * zone), each card against the previous period; charts from the same daily figures; Recent Activity.
 */
export function DashboardPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [tz] = useState(userTimeZone);
  const [range, setRange] = useState<DayRange>(() => defaultRange(tz));
  const problem = rangeProblem(range);
  const { currentData, error, isFetching, refetch } = useGetDashboardQuery(
    { ...range, tz, wabaId },
    // Opened again, the Dashboard asks again: figures move while the user is on other screens.
    { skip: problem !== null || wabaId === null, refetchOnMountOrArgChange: true },
  );
  const [exportCsv, exporting] = useExportDashboardMutation();
  const [exportError, setExportError] = useState<string | null>(null);

  async function handleExport() {
    setExportError(null);
    const result = await exportCsv({ ...range, tz });
    if ('error' in result) setExportError(errorText(result.error));
    else download(result.data.url, result.data.filename);
  }

  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Monitor your messaging performance and engagement metrics"
        actions={
          <>
            <fieldset
              aria-label="Date range"
              className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-1.5"
            >
              <CalendarIcon width="16" height="16" className="text-slate-500" aria-hidden="true" />
              <label className="sr-only" htmlFor="dashboard-from">
                From
              </label>
              <input
                id="dashboard-from"
                type="date"
                value={range.from}
                max={range.to}
                onChange={(event) => setRange((r) => ({ ...r, from: event.target.value }))}
                className={inputClass}
              />
              <span aria-hidden="true" className="text-slate-500">
                –
              </span>
              <label className="sr-only" htmlFor="dashboard-to">
                To
              </label>
              <input
                id="dashboard-to"
                type="date"
                value={range.to}
                min={range.from}
                onChange={(event) => setRange((r) => ({ ...r, to: event.target.value }))}
                className={inputClass}
              />
            </fieldset>
            <button
              type="button"
              className={secondaryButtonClass}
              aria-label="Refresh"
              disabled={problem !== null || wabaId === null || isFetching}
              onClick={() => void refetch()}
            >
              <RefreshIcon width="16" height="16" className={isFetching ? 'animate-spin' : undefined} />
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={problem !== null || wabaId === null || exporting.isLoading}
              onClick={() => void handleExport()}
            >
              <DownloadIcon width="16" height="16" />
              Export Data
            </button>
          </>
        }
      />
      <p className="-mt-2 mb-4 text-xs text-slate-500">Days in your time zone ({tz}).</p>
      {problem ? (
        <p role="alert" className="mb-4 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {exportError ? (
        <p role="alert" className="mb-4 text-sm text-red-700">
          Export failed: {exportError}
        </p>
      ) : null}
      <DashboardBody wabaId={wabaId} data={currentData} error={error ? errorText(error) : null} />
    </>
  );
}

function DashboardBody({
  wabaId,
  data,
  error,
}: {
  wabaId: string | null;
  data: DashboardResponse | undefined;
  error: string | null;
}) {
  if (wabaId === null)
    return (
      <EmptyState title="No WhatsApp account selected">
        Connect a WhatsApp Business account (or choose one in the header) to see its figures.
      </EmptyState>
    );
  if (error)
    return (
      <p role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-sm text-red-700">
        The figures could not be loaded: {error}
      </p>
    );
  if (!data)
    return (
      <p role="status" className="rounded-xl border border-slate-200 bg-white p-5 text-sm text-slate-500">
        Loading figures…
      </p>
    );
  return (
    <>
      {data.empty ? (
        <section
          aria-label="No data yet"
          className="mb-4 rounded-xl border border-dashed border-slate-300 bg-white px-5 py-3 text-sm text-slate-600 [&_a]:font-medium [&_a]:text-emerald-700 [&_a]:underline"
        >
          <strong className="font-semibold text-slate-900">No data yet.</strong> Figures appear once this
          account sends its first broadcast: create an approved template, add contacts, then{' '}
          <Link to="/broadcast/new">send a broadcast</Link>.
        </section>
      ) : null}
      <ul aria-label="Metrics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {data.cards.map((card) => (
          <MetricCard key={card.key} card={card}>
            {/* Clicks on tracked links: a part of engagement the card's replies and presses leave out. */}
            {card.key === 'engagement_rate' ? <ClickLine clicks={data.clicks} /> : null}
            {/* Messages that ran out their time-to-live: undelivered, yet not counted as failed. */}
            {card.key === 'failed_messages' ? <ExpiredLine expired={data.expired} /> : null}
          </MetricCard>
        ))}
      </ul>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <MessageOverviewChart days={data.days} />
        <MessageTypesChart categories={data.categories} />
        <EngagementRateChart days={data.days} />
        <ResponseTimeChart days={data.days} />
      </div>
      <RecentActivity rows={data.recent_activity} />
    </>
  );
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center"
    >
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <p className="mx-auto mt-2 max-w-xl text-sm text-slate-600 [&_a]:font-medium [&_a]:text-emerald-700 [&_a]:underline">
        {children}
      </p>
    </section>
  );
}
