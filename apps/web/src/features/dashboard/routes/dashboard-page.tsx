import { PageHeader } from '../../../components/page-header';
import { secondaryButtonClass } from '../../../components/button-classes';
import { CalendarIcon, DownloadIcon, RefreshIcon } from '../../../components/icons';
import {
  EngagementRateChart,
  MessageOverviewChart,
  MessageTypesChart,
  ResponseTimeChart,
} from '../components/chart-placeholders';
import { DATE_RANGE_LABEL, METRICS, RECENT_ACTIVITY } from '../placeholder-data';

/** Spec §2: a static placeholder; the date range, refresh and export controls have no behaviour. */
export function DashboardPage() {
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Monitor your messaging performance and engagement metrics"
        actions={
          <>
            <button type="button" className={secondaryButtonClass} aria-label="Date range">
              <CalendarIcon width="16" height="16" />
              {DATE_RANGE_LABEL}
            </button>
            <button type="button" className={secondaryButtonClass} aria-label="Refresh">
              <RefreshIcon width="16" height="16" />
            </button>
            <button type="button" className={secondaryButtonClass}>
              <DownloadIcon width="16" height="16" />
              Export Data
            </button>
          </>
        }
      />
      <ul aria-label="Metrics" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {METRICS.map((metric) => (
          <li key={metric.label} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs">
            <p className="text-sm text-slate-500">{metric.label}</p>
            <p className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{metric.value}</p>
            <p
              className={`mt-1 text-xs font-medium ${metric.positive ? 'text-emerald-600' : 'text-red-600'}`}
            >
              {metric.change} vs last period
            </p>
          </li>
        ))}
      </ul>
      <div className="mt-6 grid gap-4 lg:grid-cols-2">
        <MessageOverviewChart />
        <MessageTypesChart />
        <EngagementRateChart />
        <ResponseTimeChart />
      </div>
      <section className="mt-6 rounded-xl border border-slate-200 bg-white shadow-xs">
        <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">
          Recent Activity
        </h2>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50">
              <tr>
                {['Broadcast', 'Date', 'Recipients', 'Status'].map((header) => (
                  <th
                    key={header}
                    scope="col"
                    className="px-5 py-3 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase"
                  >
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {RECENT_ACTIVITY.map((row) => (
                <tr key={row.broadcast}>
                  <td className="px-5 py-3 font-medium text-slate-800">{row.broadcast}</td>
                  <td className="px-5 py-3 whitespace-nowrap text-slate-600">{row.date}</td>
                  <td className="px-5 py-3 text-slate-600">{row.recipients}</td>
                  <td className="px-5 py-3">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${
                        row.status === 'Completed'
                          ? 'bg-emerald-50 text-emerald-700 ring-emerald-200'
                          : 'bg-amber-50 text-amber-700 ring-amber-200'
                      }`}
                    >
                      {row.status}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
