import type { TemplateListItem } from './schemas';

/** What Meta's lifecycle webhooks left on a template beside its status (list item or detail). */
export type TemplateLifecycle = Pick<TemplateListItem, 'locked' | 'flagged_at' | 'pending_category'>;

/** What editing a locked template says, and why the edit page's Submit is off. */
export const TEMPLATE_LOCKED_NOTE = 'Locked by Meta: can be sent, cannot be edited';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * The lines shown beside a template's status wherever it is listed, edited or chosen: a lock, a quality warning,
 * a category change to come (with its date when Meta gave one). None for a template Meta said nothing more of.
 * For sending (New broadcast) a lock is left out, as it stops only edits, and a coming category says what it
 * changes: the price.
 */
export function templateLifecycleNotes(item: TemplateLifecycle, { sending = false } = {}): string[] {
  const notes: string[] = [];
  if (item.locked && !sending) notes.push(TEMPLATE_LOCKED_NOTE);
  if (item.flagged_at) notes.push('Flagged by Meta: at risk of being disabled');
  const coming = item.pending_category;
  if (coming) {
    const date = coming.effective_at ? new Date(coming.effective_at) : null;
    const when = date && !Number.isNaN(date.getTime()) ? ` on ${day.format(date)}` : ' soon';
    notes.push(
      `Category changes to ${coming.category}${when}${sending ? ': messages sent from then are charged at its rates' : ''}`,
    );
  }
  return notes;
}
