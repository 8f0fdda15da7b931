import { PreviousNext } from '../../../components/previous-next';

type TemplatesPaginationProps = {
  page: number;
  /** Rows on this page. */
  shown: number;
  count: number | undefined;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
};

/** 'Showing N of total templates', Previous/Next and the page number; hidden when count is 0. */
export function TemplatesPagination({
  page,
  shown,
  count,
  hasPrevious,
  hasNext,
  onPage,
}: TemplatesPaginationProps) {
  if (!count) return null;
  return (
    <nav
      aria-label="Templates pages"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm"
    >
      <p className="text-slate-600">
        Showing {shown} of {count} templates
      </p>
      <div className="flex items-center gap-2">
        <PreviousNext page={page} hasPrevious={hasPrevious} hasNext={hasNext} onPage={onPage}>
          <span
            aria-current="page"
            aria-label={`Page ${page}`}
            className="min-w-9 rounded-lg bg-emerald-700 px-3 py-2 text-center font-semibold text-white"
          >
            {page}
          </span>
        </PreviousNext>
      </div>
    </nav>
  );
}
