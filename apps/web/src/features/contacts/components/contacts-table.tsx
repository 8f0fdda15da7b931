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

/**
 * The table's columns, in order. The name opens the contact's form in update mode, a tag
 * chip filters the list by its tag.
 */
function columns(
  onTag: (tag: Contact['tags'][number]) => void,
  onEdit: (contact: Contact) => void,
): readonly Column[] {
  return [
    {
      header: 'Name',
      cell: (c) => (
        <>
          <button
            type="button"
            title="Edit"
            onClick={() => onEdit(c)}
            className="text-left font-medium text-slate-900 hover:text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-600"
          >
            {c.recipient_name}
          </button>
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
    {
      header: 'Number',
      cell: (c) =>
        // A customer who hides their number is known by their BSUID alone: show their username instead.
        c.bsuid && c.whatsapp_number === c.bsuid ? (
          <span title="WhatsApp does not share this customer's number">
            {c.username ? `@${c.username}` : 'Number hidden'}
          </span>
        ) : (
          <span className="tabular-nums">{displayNumber(c.whatsapp_number)}</span>
        ),
    },
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
              <button
                key={tag.id}
                type="button"
                title={`Show only contacts tagged ${tag.tag_name}`}
                onClick={() => onTag(tag)}
                className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-emerald-600"
              >
                {tag.tag_name}
              </button>
            ))}
          </span>
        ) : (
          '—'
        ),
    },
  ];
}

const HEADER_LABELS: readonly DataTableHeader[] = [
  'Name',
  'Number',
  'Age',
  'Gender',
  'Address',
  'Post Code',
  'Email',
  'Tags',
].map((label) => ({ key: label, label }));

const iconButtonClass =
  'rounded-lg p-1.5 text-slate-500 transition hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600';

type ContactsTableProps = {
  /** The page's rows; undefined while it loads. */
  contacts: Contact[] | undefined;
  /** Rows are shown but a newer answer is on the way (after a change elsewhere). */
  refreshing: boolean;
  error: string | null;
  emptyText: string;
  /** The ids of the checked rows. */
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], checked: boolean) => void;
  onTag: (tag: Contact['tags'][number]) => void;
  onEdit: (contact: Contact) => void;
  onDelete: (contact: Contact) => void;
};

const checkboxClass = 'h-4 w-4 rounded border-slate-300 text-emerald-700 focus:ring-emerald-500';

export function ContactsTable({
  contacts,
  refreshing,
  error,
  emptyText,
  selected,
  onSelect,
  onTag,
  onEdit,
  onDelete,
}: ContactsTableProps) {
  const cells = columns(onTag, onEdit);
  const ids = contacts?.map((contact) => contact.id) ?? [];
  const checkedOnPage = ids.filter((id) => selected.has(id)).length;
  const headers: DataTableHeader[] = [
    {
      key: 'select',
      label: (
        <input
          type="checkbox"
          aria-label="Select all on this page"
          className={checkboxClass}
          disabled={ids.length === 0}
          checked={ids.length > 0 && checkedOnPage === ids.length}
          ref={(box) => {
            if (box) box.indeterminate = checkedOnPage > 0 && checkedOnPage < ids.length;
          }}
          onChange={(event) => onSelect(ids, event.target.checked)}
        />
      ),
      className: 'w-10 px-3 py-3',
    },
    ...HEADER_LABELS,
    {
      key: 'actions',
      label: <span className="sr-only">Actions</span>,
      className: 'sticky right-0 bg-slate-50 px-3 py-3',
    },
  ];
  return (
    <DataTable
      headers={headers}
      rows={contacts}
      error={error}
      emptyText={emptyText}
      refreshing={refreshing}
      renderRow={(contact) => (
        <tr key={contact.id} className="group hover:bg-slate-50">
          <td className="w-10 px-3 py-3">
            <input
              type="checkbox"
              aria-label={`Select ${contact.recipient_name}`}
              className={checkboxClass}
              checked={selected.has(contact.id)}
              onChange={(event) => onSelect([contact.id], event.target.checked)}
            />
          </td>
          {cells.map((column) => (
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
              className={`${iconButtonClass} hover:text-emerald-800`}
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
