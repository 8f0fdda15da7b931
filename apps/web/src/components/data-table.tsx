import type { ReactNode } from 'react';
import { useHorizontalOverflow } from '../lib/use-horizontal-overflow';
import { labelStackedCells, STACKED_TABLE_CLASS } from './stacked-table';

/** Skeleton rows shown while a page loads. */
const SKELETON_ROWS = 5;

const HEADER_CELL_CLASS =
  'px-3 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase';

export type DataTableHeader = {
  key: string;
  /** What the header shows; an actions column may show only screen-reader text. */
  label: ReactNode;
  /** Replaces the shared header cell classes. */
  className?: string;
};

type DataTableProps<Row> = {
  headers: readonly DataTableHeader[];
  /** The page's rows; undefined while it loads (skeleton rows stand in for them). */
  rows: readonly Row[] | undefined;
  /** Renders one row: a `<tr>` with one cell per header. */
  renderRow: (row: Row) => ReactNode;
  emptyText: ReactNode;
  error?: string | null;
  /** Rows are shown but a newer answer is on the way (after a change elsewhere). */
  refreshing?: boolean;
  skeletonRows?: number;
  /** The frame around the table: a card by default; a page that puts the table in its own card passes less. */
  frameClassName?: string;
  /** What a screen reader calls the frame when it scrolls sideways (it then takes focus, for the keyboard). */
  label?: string;
};

/**
 * The app's list tables: header row, then the error, skeleton rows while loading, the empty text, or the rows.
 * Pages give the columns' headers and how to render a row; the table gives every state the same look.
 */
export function DataTable<Row>({
  headers,
  rows,
  renderRow,
  emptyText,
  error = null,
  refreshing = false,
  skeletonRows = SKELETON_ROWS,
  frameClassName = 'overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs',
  label = 'Table',
}: DataTableProps<Row>) {
  const columnCount = headers.length;
  const { ref, overflows } = useHorizontalOverflow<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className={frameClassName}
      // A frame that scrolls sideways must be reachable by the keyboard (WCAG 2.1.1), and then needs a name.
      tabIndex={overflows ? 0 : undefined}
      role={overflows ? 'region' : undefined}
      aria-label={overflows ? label : undefined}
    >
      <table
        ref={labelStackedCells}
        className={`min-w-full divide-y divide-slate-200 text-sm ${STACKED_TABLE_CLASS}`}
        aria-busy={(!rows && !error) || refreshing}
      >
        <thead className="bg-slate-50">
          <tr>
            {headers.map((header) => (
              <th key={header.key} scope="col" className={header.className ?? HEADER_CELL_CLASS}>
                {header.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 bg-white ${refreshing ? 'opacity-60' : ''}`}>
          {error ? (
            <tr>
              <td colSpan={columnCount} className="px-4 py-8 text-center">
                <span role="alert" className="text-red-700">
                  Error: {error}
                </span>
              </td>
            </tr>
          ) : !rows ? (
            Array.from({ length: skeletonRows }, (_, row) => (
              <tr key={row} data-testid="skeleton-row">
                {headers.map((header) => (
                  <td key={header.key} className="px-3 py-3.5">
                    <div className="h-4 animate-pulse rounded bg-slate-200" />
                  </td>
                ))}
              </tr>
            ))
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={columnCount} className="px-4 py-10 text-center text-slate-500">
                {emptyText}
              </td>
            </tr>
          ) : (
            rows.map(renderRow)
          )}
        </tbody>
      </table>
    </div>
  );
}
