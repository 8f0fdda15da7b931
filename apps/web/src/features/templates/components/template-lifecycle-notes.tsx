import type { TemplateListItem } from '@herald/contracts';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** What Meta said of the template beside its status: a lock, a quality warning, a category change to come. */
export function TemplateLifecycleNotes({ item }: { item: TemplateListItem }) {
  const notes: string[] = [];
  if (item.locked) notes.push('Locked by Meta: can be sent, cannot be edited');
  if (item.flagged_at) notes.push('Flagged by Meta: at risk of being disabled');
  const coming = item.pending_category;
  if (coming) {
    const date = coming.effective_at ? new Date(coming.effective_at) : null;
    const when = date && !Number.isNaN(date.getTime()) ? ` on ${day.format(date)}` : ' soon';
    notes.push(`Category changes to ${coming.category}${when}`);
  }
  if (notes.length === 0) return null;
  return (
    <span className="mt-1 block text-xs text-amber-800">
      {notes.map((note) => (
        <span key={note} className="block">
          {note}
        </span>
      ))}
    </span>
  );
}

/** Meta's reason code and, when it gave one, its explanation and what to change. */
export function TemplateRejection({ item }: { item: TemplateListItem }) {
  const code = item.rejected_reason && item.rejected_reason !== 'NONE' ? item.rejected_reason : null;
  const info = item.rejection_info;
  if (!code && !info) return <>—</>;
  return (
    <span className="block text-red-700">
      {code && <span className="block">{code}</span>}
      {info?.reason && <span className="block text-xs whitespace-normal">{info.reason}</span>}
      {info?.recommendation && (
        <span className="block text-xs whitespace-normal text-slate-600">{info.recommendation}</span>
      )}
    </span>
  );
}
