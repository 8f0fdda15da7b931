import type { Tag } from '@herald/contracts';
import { PencilIcon, TrashIcon } from '../../../components/icons';

type TagCountsProps = {
  tags: Tag[] | undefined;
  /** The tags the list is filtered by. */
  activeIds: readonly number[];
  onToggle: (tag: Tag) => void;
  onRename: (tag: Tag) => void;
  onDelete: (tag: Tag) => void;
};

const iconClass = 'rounded-full p-1 focus-visible:outline-2 focus-visible:outline-emerald-600';
// On the pressed (green) chip the icons stay readable.
const iconColours = (active: boolean) =>
  active
    ? 'text-emerald-50 hover:bg-emerald-800 hover:text-white'
    : 'text-slate-500 hover:bg-slate-100 hover:text-slate-700';

/**
 * The account's tags with how many contacts carry each, e.g. 'VIP · 12'. Pressing a tag
 * filters the list by it; each has Rename and Delete.
 */
export function TagCounts({ tags, activeIds, onToggle, onRename, onDelete }: TagCountsProps) {
  if (!tags?.length) return null;
  return (
    // No aria-label on the list: 'Tags' would then also match the import dialog's Tag field by label.
    <section className="mb-4 flex flex-wrap items-center gap-2">
      <h2 className="mr-1 text-sm font-medium text-slate-600">Tags</h2>
      <ul className="flex flex-wrap gap-2">
        {tags.map((tag) => {
          const active = activeIds.includes(tag.id);
          return (
            <li
              key={tag.id}
              className={`inline-flex items-center rounded-full text-xs font-medium ring-1 ${
                active
                  ? 'bg-emerald-700 text-white ring-emerald-600'
                  : 'bg-white text-slate-700 ring-slate-200'
              }`}
            >
              <button
                type="button"
                aria-pressed={active}
                title={active ? `Stop filtering by ${tag.name}` : `Show only contacts tagged ${tag.name}`}
                onClick={() => onToggle(tag)}
                className="rounded-full py-1 pr-1 pl-3 focus-visible:outline-2 focus-visible:outline-emerald-600"
              >
                {`${tag.name} · ${tag.count.toLocaleString('en-US')}`}
              </button>
              <button
                type="button"
                aria-label={`Rename tag ${tag.name}`}
                className={`${iconClass} ${iconColours(active)}`}
                onClick={() => onRename(tag)}
              >
                <PencilIcon width={12} height={12} />
              </button>
              <button
                type="button"
                aria-label={`Delete tag ${tag.name}`}
                className={`${iconClass} ${iconColours(active)} mr-1`}
                onClick={() => onDelete(tag)}
              >
                <TrashIcon width={12} height={12} />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
