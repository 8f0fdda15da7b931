import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CONTACT_PAGE_SIZES, DEFAULT_CONTACT_PAGE_SIZE, phoneNumberCountry } from '@herald/contracts';
import type { Contact, Tag } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { PlusIcon, SearchIcon, UploadIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { useDebouncedCallback } from '../../../lib/use-debounced-callback';
import { useListSegmentsQuery } from '../../../lib/segments-api';
import { useGetContactsQuery, useGetTagsQuery } from '../api';
import { ContactFormDialog } from '../components/contact-form-dialog';
import { ContactsPagination, pageCount } from '../components/contacts-pagination';
import { ContactsTable } from '../components/contacts-table';
import { DeleteContactDialog } from '../components/delete-contact-dialog';
import { ImportContactsDialog } from '../components/import-contacts-dialog';
import { TagCounts } from '../components/tag-counts';
import { ActiveFilters } from '../components/active-filters';
import { BulkTagBar } from '../components/bulk-tag-bar';
import { DeleteTagDialog } from '../components/delete-tag-dialog';
import { RenameTagDialog } from '../components/rename-tag-dialog';
import { SegmentFilter, segmentIdOf } from '../components/segment-filter';

/** How long typing must pause before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; contact: Contact }
  | { kind: 'delete'; contact: Contact }
  | { kind: 'import' }
  | { kind: 'rename-tag'; tag: Tag }
  | { kind: 'delete-tag'; tag: Tag }
  | null;

type TagFilter = { id: number; name: string };

/**
 * Contacts: search, page size, paging, the table, add/edit/delete and CSV import. The
 * list reloads when the page, page size or search changes; a new search or page size starts at page 1.
 * Filters by tags, opt-out and a saved segment (from page 1 too), checked rows tagged in bulk, tags renamed and
 * deleted. The segment is in the address (`?segment=5`), so a segment's "View customers" link opens the list
 * filtered. The checked rows are those of the page in view: any change of page or filter unchecks them.
 */
export function CustomersPage() {
  const account = useAppSelector((state) => state.waba.selectedWabaAccount);
  const wabaId = account?.waba_id ?? null;
  const businessNumber = account?.details[0]?.display_phone_number;
  const businessCountry =
    typeof businessNumber === 'string' ? (phoneNumberCountry(businessNumber) ?? undefined) : undefined;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_CONTACT_PAGE_SIZE);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [tagFilter, setTagFilter] = useState<TagFilter[]>([]);
  const [optedOut, setOptedOut] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const segmentId = segmentIdOf(searchParams.get('segment'));

  // The page and the selection follow every change of what is listed.
  function showPage(next: number) {
    setPage(next);
    setSelected(new Set());
  }
  function filterTags(next: TagFilter[]) {
    setTagFilter(next);
    showPage(1);
  }
  function filterSegment(id: number | undefined) {
    // Replaced, not pushed: Back leaves the page rather than stepping through filters, as with the others.
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id === undefined) next.delete('segment');
        else next.set('segment', String(id));
        return next;
      },
      { replace: true },
    );
    showPage(1);
  }
  function toggleTag(tag: TagFilter) {
    filterTags(
      tagFilter.some((t) => t.id === tag.id) ? tagFilter.filter((t) => t.id !== tag.id) : [...tagFilter, tag],
    );
  }

  // Search and page together, so no request goes out for the new search on the old page.
  const applySearch = useDebouncedCallback((text: string) => {
    setSearch(text.trim());
    showPage(1);
  }, SEARCH_DEBOUNCE_MS);

  // currentData, not data: rows of another page, search or account must not stand in for this one's.
  // A page seen before shows at once from the cache and is fetched again.
  const { currentData, error, isFetching } = useGetContactsQuery(
    {
      page,
      pageSize,
      search,
      tagIds: tagFilter.map((tag) => tag.id),
      optedOut: optedOut ? true : undefined,
      segmentId,
      wabaId,
    },
    { refetchOnMountOrArgChange: true },
  );
  const { data: tags } = useGetTagsQuery(wabaId);
  const { data: segments } = useListSegmentsQuery();
  const segmentName = segments?.find((segment) => segment.id === segmentId)?.name;

  const count = currentData?.count;
  // Deleting the last row of the last page leaves the page past the end: step back to the new last page.
  useEffect(() => {
    if (count !== undefined && page > pageCount(count, pageSize)) setPage(pageCount(count, pageSize));
  }, [count, page, pageSize]);

  const close = () => setDialog(null);
  const tagNames = tags?.map((tag) => tag.name) ?? [];
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

      <TagCounts
        tags={tags}
        activeIds={tagFilter.map((tag) => tag.id)}
        onToggle={(tag) => toggleTag({ id: tag.id, name: tag.name })}
        onRename={(tag) => setDialog({ kind: 'rename-tag', tag })}
        onDelete={(tag) => setDialog({ kind: 'delete-tag', tag })}
      />

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-sm">
          <SearchIcon
            width={18}
            height={18}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
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
            className="block w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
          />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <SegmentFilter segments={segments} segmentId={segmentId} onChange={filterSegment} />
          <label className="mr-3 inline-flex items-center gap-2">
            <input
              type="checkbox"
              checked={optedOut}
              onChange={(event) => {
                setOptedOut(event.target.checked);
                showPage(1);
              }}
              className="h-4 w-4 rounded border-slate-300 text-emerald-700 focus:ring-emerald-500"
            />
            Opted out only
          </label>
          <span aria-hidden="true">Show</span>
          <select
            aria-label="Page size"
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              showPage(1);
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

      <ActiveFilters
        // A tag renamed meanwhile shows its new name.
        tags={tagFilter.map((t) => ({
          id: t.id,
          name: tags?.find((tag) => tag.id === t.id)?.name ?? t.name,
        }))}
        optedOut={optedOut}
        segment={segmentId === undefined ? null : { id: segmentId, name: segmentName ?? `#${segmentId}` }}
        onRemoveTag={(id) => filterTags(tagFilter.filter((tag) => tag.id !== id))}
        onRemoveOptedOut={() => {
          setOptedOut(false);
          showPage(1);
        }}
        onRemoveSegment={() => filterSegment(undefined)}
        onClearAll={() => {
          setOptedOut(false);
          filterSegment(undefined);
          filterTags([]);
        }}
      />

      {selected.size ? (
        <BulkTagBar selected={[...selected]} tags={tags ?? []} onClear={() => setSelected(new Set())} />
      ) : null}

      <ContactsTable
        contacts={currentData?.results}
        refreshing={isFetching && currentData !== undefined}
        error={error && !isFetching ? errorText(error) : null}
        emptyText={
          search
            ? `No contacts match "${search}".`
            : tagFilter.length || optedOut || segmentId !== undefined
              ? 'No contacts match these filters.'
              : 'No contacts yet. Add one or import a CSV file.'
        }
        selected={selected}
        onSelect={(ids, checked) =>
          setSelected((current) => {
            const next = new Set(current);
            for (const id of ids) {
              if (checked) next.add(id);
              else next.delete(id);
            }
            return next;
          })
        }
        onTag={(tag) => {
          if (!tagFilter.some((t) => t.id === tag.id)) toggleTag({ id: tag.id, name: tag.tag_name });
        }}
        onEdit={(contact) => setDialog({ kind: 'edit', contact })}
        onDelete={(contact) => setDialog({ kind: 'delete', contact })}
      />

      <ContactsPagination
        page={page}
        pageSize={pageSize}
        count={count}
        hasPrevious={page > 1 && !isFetching}
        hasNext={Boolean(currentData?.next) && !isFetching}
        onPage={showPage}
      />

      {dialog?.kind === 'add' ? (
        <ContactFormDialog defaultCountry={businessCountry} tagNames={tagNames} onClose={close} />
      ) : null}
      {dialog?.kind === 'edit' ? (
        <ContactFormDialog
          key={dialog.contact.id}
          contact={dialog.contact}
          defaultCountry={businessCountry}
          tagNames={tagNames}
          onDelete={(contact) => setDialog({ kind: 'delete', contact })}
          onClose={close}
        />
      ) : null}
      {dialog?.kind === 'delete' ? <DeleteContactDialog contact={dialog.contact} onClose={close} /> : null}
      {dialog?.kind === 'import' ? <ImportContactsDialog onClose={close} /> : null}
      {dialog?.kind === 'rename-tag' ? <RenameTagDialog tag={dialog.tag} onClose={close} /> : null}
      {dialog?.kind === 'delete-tag' ? (
        <DeleteTagDialog
          tag={dialog.tag}
          // A deleted tag can no longer filter the list.
          onDeleted={(tag) => filterTags(tagFilter.filter((t) => t.id !== tag.id))}
          onClose={close}
        />
      ) : null}
    </>
  );
}
