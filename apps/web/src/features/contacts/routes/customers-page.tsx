import { useEffect, useState } from 'react';
import { CONTACT_PAGE_SIZES, DEFAULT_CONTACT_PAGE_SIZE } from '@herald/contracts';
import type { Contact } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { PlusIcon, SearchIcon, UploadIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { useAppSelector } from '../../../app/hooks';
import { errorText } from '../../../lib/error-text';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';
import { useGetContactsQuery, useGetTagsQuery } from '../api';
import { ContactFormDialog } from '../components/contact-form-dialog';
import { ContactsPagination, pageCount } from '../components/contacts-pagination';
import { ContactsTable } from '../components/contacts-table';
import { DeleteContactDialog } from '../components/delete-contact-dialog';
import { ImportContactsDialog } from '../components/import-contacts-dialog';
import { TagCounts } from '../components/tag-counts';

/** How long typing must pause before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'delete'; contact: Contact }
  | { kind: 'import' }
  | null;

/**
 * Spec §2 Contacts: search, page size, paging, the table, add/edit/delete and CSV import. Spec §4: the
 * list reloads when the page, page size or search changes; a new search or page size starts at page 1.
 */
export function CustomersPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_CONTACT_PAGE_SIZE);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<OpenDialog>(null);

  // Search and page together, so no request goes out for the new search on the old page.
  const applySearch = useDebouncedCallback((text: string) => {
    setSearch(text.trim());
    setPage(1);
  }, SEARCH_DEBOUNCE_MS);

  // currentData, not data: rows of another page, search or account must not stand in for this one's.
  // Spec §4 "reloads": a page seen before shows at once from the cache and is fetched again.
  const { currentData, error, isFetching } = useGetContactsQuery(
    { page, pageSize, search, wabaId },
    { refetchOnMountOrArgChange: true },
  );
  const { data: tags } = useGetTagsQuery(wabaId);

  const count = currentData?.count;
  // Deleting the last row of the last page leaves the page past the end: step back to the new last page.
  useEffect(() => {
    if (count !== undefined && page > pageCount(count, pageSize)) setPage(pageCount(count, pageSize));
  }, [count, page, pageSize]);

  const close = () => setDialog(null);
  return (
    <>
      <PageHeader
        title="Customers"
        description="Your contacts for this WhatsApp Business account."
        actions={
          <>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => setDialog({ kind: 'import' })}
            >
              <UploadIcon width={18} height={18} />
              Import Contacts
            </button>
            <button type="button" className={primaryButtonClass} onClick={() => setDialog({ kind: 'add' })}>
              <PlusIcon width={18} height={18} />
              Add New Contact
            </button>
          </>
        }
      />

      <TagCounts tags={tags} />

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-sm">
          <SearchIcon
            width={18}
            height={18}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
          />
          <input
            type="search"
            aria-label="Search contacts"
            placeholder="Search by name, number or email"
            value={searchText}
            onChange={(event) => {
              setSearchText(event.target.value);
              applySearch(event.target.value);
            }}
            className="block w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
          />
        </div>
        <div className="flex items-center gap-2 text-sm text-slate-600">
          <span aria-hidden="true">Show</span>
          <select
            aria-label="Page size"
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setPage(1);
            }}
            className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
          >
            {CONTACT_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
          <span aria-hidden="true">entries</span>
        </div>
      </div>

      <ContactsTable
        contacts={currentData?.results}
        refreshing={isFetching && currentData !== undefined}
        error={error && !isFetching ? errorText(error) : null}
        emptyText={
          search ? `No contacts match "${search}".` : 'No contacts yet. Add one or import a CSV file.'
        }
        onEdit={(contact) => setDialog({ kind: 'edit', contact })}
        onDelete={(contact) => setDialog({ kind: 'delete', contact })}
      />

      <ContactsPagination
        page={page}
        pageSize={pageSize}
        count={count}
        hasPrevious={page > 1 && !isFetching}
        hasNext={Boolean(currentData?.next) && !isFetching}
        onPage={setPage}
      />

      {dialog?.kind === 'add' ? <ContactFormDialog onClose={close} /> : null}
      {dialog?.kind === 'edit' ? (
        <ContactFormDialog key={dialog.contact.id} contact={dialog.contact} onClose={close} />
      ) : null}
      {dialog?.kind === 'delete' ? <DeleteContactDialog contact={dialog.contact} onClose={close} /> : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={close} /> : null}
    </>
  );
}
