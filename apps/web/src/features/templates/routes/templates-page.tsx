import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { TEMPLATE_SORTS, TEMPLATE_SORT_LABELS } from '@herald/contracts';
import type { TemplateListItem, TemplateSort } from '@herald/contracts';
import { primaryButtonClass } from '../../../components/button-classes';
import { PlusIcon, RefreshIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { SearchOnEnter } from '../../../components/search-on-enter';
import { WatchTutorialButton } from '../../../components/watch-tutorial-button';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import {
  templatesApi,
  useGetTemplatesQuery,
  useSubmitTemplateMutation,
  useSyncTemplatesMutation,
} from '../api';
import { DeleteTemplateDialog } from '../components/delete-template-dialog';
import { TemplatesPagination } from '../components/templates-pagination';
import { TemplatesTable } from '../components/templates-table';

/** The templates list's page size. */
const PAGE_SIZE = 10;

/** While a shown row waits for Meta's review the page is re-read this often, so an approval shows up. */
const PENDING_POLL_MS = 3000;

const iconButtonClass =
  'rounded-lg border border-slate-300 bg-white p-2 text-slate-600 shadow-xs transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:cursor-wait disabled:opacity-60';

const limitDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** Meta's LIMIT_EXCEEDED, until a template is deleted at Meta or a new one is accepted. */
export function templateLimitNote(at: string): string {
  return `Meta said on ${limitDay.format(new Date(at))} that this account has reached its limit of templates: Meta refuses new ones until you delete templates you no longer use.`;
}

/** Templates list (/template). */
export function TemplatesPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<TemplateSort>('latest');
  const [deleting, setDeleting] = useState<TemplateListItem | null>(null);
  const [submitTemplate, { isLoading: submitting, originalArgs: submittingId }] = useSubmitTemplateMutation();
  const [syncTemplates, { isLoading: syncing }] = useSyncTemplatesMutation();

  const args = { page, pageSize: PAGE_SIZE, search, sort, wabaId };
  // The cached page decides whether to poll: only while one of its rows is PENDING.
  const cached = templatesApi.endpoints.getTemplates.useQueryState(args);
  const pending = cached.currentData?.results.some((t) => t.status.toUpperCase() === 'PENDING') ?? false;
  const { currentData, error, isFetching } = useGetTemplatesQuery(args, {
    refetchOnMountOrArgChange: true,
    pollingInterval: pending ? PENDING_POLL_MS : 0,
  });

  const count = currentData?.count;
  // Deleting the last row of the last page leaves the page past the end: step back.
  useEffect(() => {
    if (count !== undefined && page > 1 && (page - 1) * PAGE_SIZE >= count) {
      setPage(Math.max(1, Math.ceil(count / PAGE_SIZE)));
    }
  }, [count, page]);

  async function handleSubmit(item: TemplateListItem) {
    try {
      await submitTemplate(item.id).unwrap();
    } catch (submitError) {
      console.error('Submitting the template failed', submitError);
      toast.error(errorText(submitError));
    }
  }

  // Review webhooks normally keep statuses current; this re-reads them when one was missed (decision 038).
  async function handleRefresh() {
    try {
      const { updated } = await syncTemplates().unwrap();
      toast.success(
        updated === 0
          ? 'Templates are up to date with Meta.'
          : `${updated} ${updated === 1 ? 'template' : 'templates'} updated from Meta.`,
      );
    } catch (syncError) {
      console.error('Refreshing templates from Meta failed', syncError);
      toast.error(errorText(syncError));
    }
  }

  return (
    <>
      <PageHeader
        title="Your Templates"
        description="Message templates must follow WhatsApp's messaging guidelines and are reviewed by Meta before use."
        actions={
          <>
            <WatchTutorialButton guide="templates" />
            <button
              type="button"
              aria-label="Refresh from Meta"
              title="Refresh from Meta"
              className={iconButtonClass}
              disabled={syncing}
              onClick={() => void handleRefresh()}
            >
              <RefreshIcon width={18} height={18} className={syncing ? 'animate-spin' : ''} />
            </button>
          </>
        }
      />

      {currentData?.template_limit_exceeded_at ? (
        <p
          role="status"
          className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          {templateLimitNote(currentData.template_limit_exceeded_at)}
        </p>
      ) : null}

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <SearchOnEnter
          label="Search templates"
          placeholder="Search templates and press Enter"
          text={searchText}
          onTextChange={setSearchText}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
          className="w-full max-w-sm"
        />
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm text-slate-600">
            Sorted by
            <select
              value={sort}
              onChange={(event) => {
                setSort(event.target.value as TemplateSort);
                setPage(1);
              }}
              className="rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
            >
              {TEMPLATE_SORTS.map((value) => (
                <option key={value} value={value}>
                  {TEMPLATE_SORT_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <Link to="/template/create-template" className={primaryButtonClass}>
            <PlusIcon width={18} height={18} />
            New Template Message
          </Link>
        </div>
      </div>

      <TemplatesTable
        templates={currentData?.results}
        error={error && !isFetching ? errorText(error) : null}
        emptyText={search ? `No templates match "${search}".` : 'No templates yet. Create your first one.'}
        onDelete={setDeleting}
        onSubmit={(item) => void handleSubmit(item)}
        submittingId={submitting ? (submittingId ?? null) : null}
      />

      <TemplatesPagination
        page={page}
        shown={currentData?.results.length ?? 0}
        count={count}
        hasPrevious={Boolean(currentData?.previous)}
        hasNext={Boolean(currentData?.next)}
        onPage={setPage}
      />

      {deleting ? <DeleteTemplateDialog template={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}
