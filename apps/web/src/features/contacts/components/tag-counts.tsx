import type { Tag } from '@herald/contracts';

/** The account's tags with how many contacts carry each (spec §3 Tag), e.g. 'VIP · 12'. */
export function TagCounts({ tags }: { tags: Tag[] | undefined }) {
  if (!tags?.length) return null;
  return (
    // No aria-label on the list: 'Tags' would then also match the import dialog's Tag field by label.
    <section className="mb-4 flex flex-wrap items-center gap-2">
      <h2 className="mr-1 text-sm font-medium text-slate-600">Tags</h2>
      <ul className="flex flex-wrap gap-2">
        {tags.map((tag) => (
          <li
            key={tag.id}
            className="rounded-full bg-white px-3 py-1 text-xs font-medium text-slate-700 ring-1 ring-slate-200"
          >
            {`${tag.name} · ${tag.count.toLocaleString('en-US')}`}
          </li>
        ))}
      </ul>
    </section>
  );
}
