type TemplateStatusBadgeProps = {
  status: string;
  /** Drafts get a 'Submit' button that sends them for review. */
  onSubmit: () => void;
  submitting: boolean;
};

/** Template status: approved green; draft with a 'Submit' button; any other value yellow. */
export function TemplateStatusBadge({ status, onSubmit, submitting }: TemplateStatusBadgeProps) {
  const upper = status.toUpperCase();
  if (upper === 'DRAFT') {
    return (
      <span className="inline-flex items-center gap-2">
        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-slate-200">
          {status}
        </span>
        <button
          type="button"
          disabled={submitting}
          onClick={onSubmit}
          className="rounded-md bg-emerald-700 px-2 py-0.5 text-xs font-semibold text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:opacity-60"
        >
          {submitting ? 'Submitting...' : 'Submit'}
        </button>
      </span>
    );
  }
  const tone =
    upper === 'APPROVED'
      ? 'bg-emerald-50 text-emerald-700 ring-emerald-200'
      : 'bg-amber-50 text-amber-800 ring-amber-200';
  return (
    <span data-status={upper} className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${tone}`}>
      {status}
    </span>
  );
}
