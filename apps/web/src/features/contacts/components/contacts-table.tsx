import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { ReactNode } from 'react';
import type { Contact } from '@herald/contracts';
import { DataTable, type DataTableHeader } from '../../../components/data-table';
import { PencilIcon, TrashIcon } from '../../../components/icons';

type Column = {
  header: string;
  cell: (contact: Contact) => ReactNode;
  /** Classes of the column's cells beyond the shared ones. */
  className?: string;
};

/** The stored number is E.164; people read it grouped ('+1 415 555 0123'). */
function displayNumber(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

function orDash(value: string | number | null): string {
  return value === null || value === '' ? '—' : String(value);
}

/** Spec §2: the table's columns, in order. */
const COLUMNS: readonly Column[] = [
  {
    header: 'Name',
    cell: (c) => (
      <>
        <span className="font-medium text-slate-900">{c.recipient_name}</span>
        {c.opted_out_at ? (
          <span
            title="Replied STOP: left out of broadcasts until they reply START"
            className="ml-2 inline-flex rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 ring-1 ring-slate-300 ring-inset"
          >
            Opted out
          </span>
        ) : null}
      </>
    ),
  },
  { header: 'Number', cell: (c) => <span className="tabular-nums">{displayNumber(c.whatsapp_number)}</span> },
  { header: 'Age', cell: (c) => orDash(c.recipient_age) },
  { header: 'Gender', cell: (c) => orDash(c.recipient_gender) },
  {
    header: 'Address',
    cell: (c) => orDash(c.recipient_address),
    // Addresses are the long free text: they wrap rather than push the actions out of view.
    className: 'min-w-40 max-w-56 whitespace-normal',
  },
  { header: 'Post Code', cell: (c) => orDash(c.recipient_post_code) },
  { header: 'Email', cell: (c) => orDash(c.recipient_email) },
  {
    header: 'Tags',
    cell: (c) =>
      c.tags.length ? (
        <span className="flex gap-1">
          {c.tags.map((tag) => (
            <span
              key={tag.id}
              className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200"
            >
              {tag.tag_name}
            </span>
          ))}
        </span>
      ) : (
        '—'
      ),
  },
];

const HEADERS: readonly DataTableHeader[] = [
  ...COLUMNS.map((column) => ({ key: column.header, label: column.header })),
  {
    key: 'actions',
    label: <span className="sr-only">Actions</span>,
    className: 'sticky right-0 bg-slate-50 px-3 py-3',
  },
];

const iconButtonClass =
  'rounded-lg p-1.5 text-slate-500 transition hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600';

type ContactsTableProps = {
  /** The page's rows; undefined while it loads. */
  contacts: Contact[] | undefined;
  /** Rows are shown but a newer answer is on the way (after a change elsewhere). */
  refreshing: boolean;
  error: string | null;
  emptyText: string;
  onEdit: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
};

export function ContactsTable({
  contacts,
  refreshing,
  error,
  emptyText,
  onEdit,
  onDelete,
}: ContactsTableProps) {
  return (
    <DataTable
      headers={HEADERS}
      rows={contacts}
      error={error}
      emptyText={emptyText}
      refreshing={refreshing}
      renderRow={(contact) => (
        <tr key={contact.id} className="group hover:bg-slate-50">
          {COLUMNS.map((column) => (
            <td
              key={column.header}
              className={`px-3 py-3 text-slate-700 ${column.className ?? 'whitespace-nowrap'}`}
            >
              {column.cell(contact)}
            </td>
          ))}
          {/* Sticky, so the actions stay in reach when the table scrolls sideways. */}
          <td className="sticky right-0 bg-white px-2 py-2 text-right whitespace-nowrap shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.15)] group-hover:bg-slate-50">
            <button
              type="button"
              aria-label={`Edit ${contact.recipient_name}`}
              title="Edit"
              className={`${iconButtonClass} hover:text-emerald-700`}
              onClick={() => onEdit(contact)}
            >
              <PencilIcon width={18} height={18} />
            </button>
            <button
              type="button"
              aria-label={`Delete ${contact.recipient_name}`}
              title="Delete"
              className={`${iconButtonClass} hover:text-red-600`}
              onClick={() => onDelete(contact)}
            >
              <TrashIcon width={18} height={18} />
            </button>
          </td>
        </tr>
      )}
    />
  );
}
