import { Link } from 'react-router';
import type { DashboardActivity } from '@herald/contracts';
import { labelStackedCells, STACKED_TABLE_CLASS } from '../../../components/stacked-table';
import { formatDateTime } from '../../../lib/date-time';

const KIND_LABELS: Record<DashboardActivity['kind'], string> = {
  broadcast: 'Broadcast',
  import: 'Import',
  template: 'Template',
};

/** The latest broadcasts, imports and template status changes, each a link to its screen. */
export function RecentActivity({ rows }: { rows: DashboardActivity[] }) {
  return (
    <section
      aria-labelledby="recent-activity"
      className="mt-6 rounded-xl border border-slate-200 bg-white shadow-xs"
    >
      <h2
        id="recent-activity"
        className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900"
      >
        Recent Activity
      </h2>
      {rows.length === 0 ? (
        <p className="px-5 py-6 text-sm text-slate-500">
          Nothing yet: broadcasts, contact imports and template reviews will be listed here.
        </p>
      ) : (
        <div className="overflow-x-auto">
          {/* On a phone the rows stack, so Date and Status stay in view. */}
          <table
            ref={labelStackedCells}
            className={`min-w-full divide-y divide-slate-200 text-sm ${STACKED_TABLE_CLASS}`}
          >
            <thead className="bg-slate-50">
              <tr>
                {['Activity', 'Type', 'Date', 'Status'].map((header) => (
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
              {rows.map((row, index) => (
                <tr key={`${index}-${row.link}`}>
                  <td className="px-5 py-3 font-medium text-slate-800">
                    <Link to={row.link} className="hover:text-emerald-800 hover:underline">
                      {row.title}
                    </Link>
                  </td>
                  <td className="px-5 py-3 text-slate-600">{KIND_LABELS[row.kind]}</td>
                  <td className="px-5 py-3 whitespace-nowrap text-slate-600">
                    <time dateTime={row.at}>{formatDateTime(row.at)}</time>
                  </td>
                  <td className="px-5 py-3 text-slate-600">{row.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
