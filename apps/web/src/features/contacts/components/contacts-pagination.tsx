import { PreviousNext } from '../../../components/previous-next';

type ContactsPaginationProps = {
  page: number;
  pageSize: number;
  /** The total of matching contacts; undefined while unknown. */
  count: number | undefined;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
};

/** The number of pages for `count` rows, at least 1 so an empty list reads 'Page 1 of 1'. */
export function pageCount(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

/** 'Showing X to Y of Z entries', 'Page N of M', Previous and Next. */
export function ContactsPagination({
  page,
  pageSize,
  count,
  hasPrevious,
  hasNext,
  onPage,
}: ContactsPaginationProps) {
  const known = count !== undefined;
  const from = known && count > 0 ? Math.min((page - 1) * pageSize + 1, count) : 0;
  const to = known ? Math.min(page * pageSize, count) : 0;
  const format = (value: number) => value.toLocaleString('en-US');
  return (
    <nav
      aria-label="Pagination"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <p aria-live="polite">
        {known ? `Showing ${format(from)} to ${format(to)} of ${format(count)} entries` : ' '}
      </p>
      <div className="flex items-center gap-3">
        <PreviousNext page={page} hasPrevious={hasPrevious} hasNext={hasNext} onPage={onPage}>
          <span className="whitespace-nowrap">
            {known ? `Page ${format(page)} of ${format(pageCount(count, pageSize))}` : ''}
          </span>
        </PreviousNext>
      </div>
    </nav>
  );
}
