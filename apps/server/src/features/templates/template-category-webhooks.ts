import type { WebhookHandler } from '../webhooks/index';

/**
 * `template_category_update`, in Meta's two shapes. The notice a day ahead carries `correct_category` (the one
 * to come), `new_category` (the current one, in Meta's words) and `category_update_timestamp`; the change itself
 * carries `previous_category` and `new_category`.
 */
interface CategoryUpdate {
  message_template_id?: number | string;
  correct_category?: string | null;
  new_category?: string | null;
  previous_category?: string | null;
  category_update_timestamp?: number | string | null;
}

/** Meta's timestamp (Unix seconds) as a Date; null when absent or not a number. */
function effectiveAt(raw: CategoryUpdate['category_update_timestamp']): Date | null {
  const seconds = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? new Date(seconds * 1000)
    : null;
}

const category = (raw: string | null | undefined) => (raw ? raw.toUpperCase() : null);

/**
 * Keeps the category Herald stores as Meta's: the estimate, the cost, the US marketing rule and the sender all
 * read `templates.category`, so they follow a re-categorised template without knowing of it. A notice is kept
 * beside it (with its date) until the change arrives; a notice for the category the template already has is
 * none. Idempotent: applying either shape again changes nothing.
 */
export const applyTemplateCategoryUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as CategoryUpdate;
  if (update?.message_template_id === undefined) return;
  const key = [change.wabaId, String(update.message_template_id)];
  const coming = category(update.correct_category);
  if (coming) {
    await client.query(
      `update templates t set pending_category = $3, pending_category_at = $4, updated_at = now()
         from waba_accounts w
        where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2
          and t.category <> $3
          and (t.pending_category, t.pending_category_at) is distinct from ($3, $4)`,
      [...key, coming, effectiveAt(update.category_update_timestamp)],
    );
    return;
  }
  const changed = category(update.new_category);
  if (!changed) return;
  await client.query(
    `update templates t set category = $3, pending_category = null, pending_category_at = null, updated_at = now()
       from waba_accounts w
      where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2
        and (t.category, t.pending_category) is distinct from ($3, null)`,
    [...key, changed],
  );
};
