import { parseTemplateCategoryUpdate } from '@herald/contracts';
import type { WebhookHandler } from '../webhooks/index';

/**
 * Keeps the category Herald stores as Meta's: the estimate, the cost, the US marketing rule and the sender all
 * read `templates.category`, so they follow a re-categorised template without knowing of it. A notice is kept
 * beside it (with its date) until the change arrives; a notice for the category the template already has is
 * none. Idempotent: applying either shape again changes nothing.
 */
export const applyTemplateCategoryUpdate: WebhookHandler = async (client, change) => {
  const update = parseTemplateCategoryUpdate(change.value);
  if (!update) return;
  const key = [change.wabaId, update.templateId];
  if (update.coming) {
    await client.query(
      `update templates t set pending_category = $3, pending_category_at = $4, updated_at = now()
         from waba_accounts w
        where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2
          and t.category <> $3
          and (t.pending_category, t.pending_category_at) is distinct from ($3, $4)`,
      [...key, update.coming, update.at],
    );
    return;
  }
  if (!update.current) return;
  await client.query(
    `update templates t set category = $3, pending_category = null, pending_category_at = null, updated_at = now()
       from waba_accounts w
      where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2
        and (t.category, t.pending_category) is distinct from ($3, null)`,
    [...key, update.current],
  );
};
