import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { TemplateListItem } from '@herald/contracts';
import { DataTable, type DataTableHeader } from '../../../components/data-table';
import { PencilIcon, TrashIcon } from '../../../components/icons';
import { WrappableName } from '../../../components/wrappable-name';
import { formatDateTime } from '../../../lib/date-time';
import { TemplateLifecycleNotes, TemplateRejection } from './template-lifecycle-notes';
import { TemplateStatusBadge } from './template-status-badge';

/** A quality score of 'UNKNOWN' or missing shows 'Unknown'; its date is in epoch seconds. */
function quality(item: TemplateListItem): ReactNode {
  const score = item.quality_score?.score;
  if (!score || score.toUpperCase() === 'UNKNOWN') return 'Unknown';
  const date = item.quality_score?.date;
  return <span title={date ? `As of ${formatDateTime(new Date(date * 1000))}` : undefined}>{score}</span>;
}

type RowActions = {
  onDelete: (item: TemplateListItem) => void;
  onSubmit: (item: TemplateListItem) => void;
  /** The draft being submitted, if any. */
  submittingId: number | null;
};

type Column = {
  header: string;
  cell: (item: TemplateListItem, actions: RowActions) => ReactNode;
  /** Replaces the cell's default classes: the wide columns may wrap, so every column fits at 1440 px. */
  className?: string;
};

const CELL_CLASS = 'px-3 py-3 whitespace-nowrap text-slate-700';

const iconButtonClass =
  'inline-flex rounded-lg p-1.5 text-slate-500 transition hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600';

/** The table's columns, in order: the spec's, then the row's actions in a column of their own. */
const COLUMNS: readonly Column[] = [
  {
    header: 'Template Name',
    cell: (item) => (
      <Link
        to={`/templates/${item.id}`}
        className="font-medium text-slate-900 hover:text-emerald-800 hover:underline"
      >
        <WrappableName name={item.template_name} />
      </Link>
    ),
    className: 'max-w-[16rem] px-3 py-3 break-words text-slate-700',
  },
  { header: 'Category', cell: (item) => item.category },
  { header: 'Language', cell: (item) => item.language_code },
  {
    header: 'Status',
    cell: (item, actions) => (
      <>
        <TemplateStatusBadge
          status={item.status}
          submitting={actions.submittingId === item.id}
          onSubmit={() => actions.onSubmit(item)}
        />
        <TemplateLifecycleNotes item={item} />
      </>
    ),
    // Meta's notes wrap under the badge rather than widening the table past its Actions column.
    className: 'max-w-[12rem] px-3 py-3 break-words whitespace-normal text-slate-700',
  },
  { header: 'Rejected Reason', cell: (item) => <TemplateRejection item={item} /> },
  {
    header: 'Last Updated Time',
    cell: (item) => formatDateTime(item.last_updated_time),
    className: 'min-w-[7.5rem] px-3 py-3 text-slate-700',
  },
  { header: 'Quality Score', cell: quality },
  {
    header: 'Components',
    // Each component on one line: a row breaks between them, never inside 'Buttons (2)'.
    cell: (item) => (
      <span data-testid="template-components">
        {item.components.map((part, i) => (
          <Fragment key={i}>
            {i > 0 ? ' · ' : null}
            <span className="whitespace-nowrap">{part}</span>
          </Fragment>
        ))}
      </span>
    ),
    className: 'min-w-[9rem] max-w-[13rem] px-3 py-3 text-slate-700',
  },
  {
    header: 'Actions',
    cell: (item, actions) => (
      <span className="flex items-center gap-1">
        <Link
          to={`/templates/${item.id}`}
          aria-label={`Edit ${item.template_name}`}
          title="Edit"
          className={`${iconButtonClass} hover:text-emerald-800`}
        >
          <PencilIcon width={18} height={18} />
        </Link>
        <button
          type="button"
          aria-label={`Delete ${item.template_name}`}
          title="Delete"
          className={`${iconButtonClass} hover:text-red-600`}
          onClick={() => actions.onDelete(item)}
        >
          <TrashIcon width={18} height={18} />
        </button>
      </span>
    ),
  },
];

type TemplatesTableProps = RowActions & {
  /** The page's rows; undefined while it loads. */
  templates: TemplateListItem[] | undefined;
  error: string | null;
  emptyText: string;
};

// Nine columns fit beside the navigation at 1440 px only if the headers ('Last Updated Time' on two lines) and
// the wide cells may wrap.
const HEADERS: readonly DataTableHeader[] = COLUMNS.map((column) => ({
  key: column.header,
  label: column.header,
  className: 'px-3 py-3 text-left align-bottom text-xs font-semibold tracking-wide text-slate-500 uppercase',
}));

export function TemplatesTable({ templates, error, emptyText, ...actions }: TemplatesTableProps) {
  return (
    <DataTable
      headers={HEADERS}
      rows={templates}
      error={error}
      emptyText={emptyText}
      renderRow={(item) => (
        <tr key={item.id} className="hover:bg-slate-50">
          {COLUMNS.map((column) => (
            <td key={column.header} className={column.className ?? CELL_CLASS}>
              {column.cell(item, actions)}
            </td>
          ))}
        </tr>
      )}
    />
  );
}
