import { CloseIcon } from '../../../components/icons';

type ActiveFiltersProps = {
  /** The tags filtered by (any of them), by id and name. */
  tags: ReadonlyArray<{ id: number; name: string }>;
  optedOut: boolean;
  /** The saved segment filtered by, if any. */
  segment: { id: number; name: string } | null;
  onRemoveTag: (id: number) => void;
  onRemoveOptedOut: () => void;
  onRemoveSegment: () => void;
  onClearAll: () => void;
};

const chipClass =
  'inline-flex items-center gap-1 rounded-full bg-slate-800 py-0.5 pr-1 pl-2.5 text-xs font-medium text-white';

/** The filters narrowing the list, each removable, so a filtered list never passes for the whole one. */
export function ActiveFilters({
  tags,
  optedOut,
  segment,
  onRemoveTag,
  onRemoveOptedOut,
  onRemoveSegment,
  onClearAll,
}: ActiveFiltersProps) {
  if (!tags.length && !optedOut && !segment) return null;
  return (
    <section aria-label="Active filters" className="mb-3 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-600">Showing only:</span>
      {segment ? (
        <span className={chipClass}>
          {`Segment: ${segment.name}`}
          <button
            type="button"
            aria-label={`Remove filter Segment: ${segment.name}`}
            className="rounded-full p-0.5 hover:bg-slate-600"
            onClick={onRemoveSegment}
          >
            <CloseIcon width={12} height={12} />
          </button>
        </span>
      ) : null}
      {tags.map((tag) => (
        <span key={tag.id} className={chipClass}>
          {`Tag: ${tag.name}`}
          <button
            type="button"
            aria-label={`Remove filter Tag: ${tag.name}`}
            className="rounded-full p-0.5 hover:bg-slate-600"
            onClick={() => onRemoveTag(tag.id)}
          >
            <CloseIcon width={12} height={12} />
          </button>
        </span>
      ))}
      {optedOut ? (
        <span className={chipClass}>
          Opted out
          <button
            type="button"
            aria-label="Remove filter Opted out"
            className="rounded-full p-0.5 hover:bg-slate-600"
            onClick={onRemoveOptedOut}
          >
            <CloseIcon width={12} height={12} />
          </button>
        </span>
      ) : null}
      <button type="button" className="text-emerald-700 underline" onClick={onClearAll}>
        Clear filters
      </button>
    </section>
  );
}
