import { PreviousNext } from '../../../components/previous-next';

type BroadcastsPaginationProps = {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
};

/** Previous/Next, shown only when there is more than one page. */
export function BroadcastsPagination({ page, pageCount, onPage }: BroadcastsPaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav
      aria-label="Pagination"
      className="flex items-center justify-between gap-3 border-t border-slate-200 px-4 py-3"
    >
      <p className="text-sm text-slate-600">
        Page {page} of {pageCount}
      </p>
      <div className="flex gap-2">
        <PreviousNext page={page} hasPrevious={page > 1} hasNext={page < pageCount} onPage={onPage} />
      </div>
    </nav>
  );
}
