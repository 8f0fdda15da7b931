import { parseTemplateCategoryUpdate } from '@herald/contracts';
import type { WebhookHandler } from '../../webhooks';
import { broadcastWrites } from './message-status-webhooks';

/** The template events that stop its broadcasts; REINSTATED or APPROVED leave them paused (decision 029). */
const VERB_OF_EVENT: Record<string, 'paused' | 'disabled'> = { PAUSED: 'paused', DISABLED: 'disabled' };

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * `message_template_status_update` with event PAUSED or DISABLED: every sending or paused broadcast of that
 * account using the template pauses with the reason. Only collected here; applied at the batch's end with the
 * status webhooks, under the one lock order (broadcast rows, then message rows, each by id; decision 022).
 * A scheduled broadcast is left alone: when it is due, its first send answers 132015 and pauses it (decision 029).
 */
export const collectTemplatePause: WebhookHandler = async (_client, change, batch) => {
  const update = change.value as {
    event?: unknown;
    message_template_id?: unknown;
    reason?: unknown;
    other_info?: { title?: unknown; description?: unknown };
  };
  const verb = VERB_OF_EVENT[String(update?.event)];
  const id = update?.message_template_id;
  if (!verb || (typeof id !== 'string' && typeof id !== 'number')) return;
  const reason = text(update.reason);
  const why =
    text(update.other_info?.description) ??
    text(update.other_info?.title) ??
    (reason && reason !== 'NONE' ? reason : null);
  broadcastWrites(batch).pauses.push({ wabaId: change.wabaId, metaTemplateId: String(id), verb, why });
};

/**
 * `template_category_update` announcing a change (`correct_category`, a day ahead): a broadcast of that template
 * sending now that would not end before the change is held (paused) with the reason, so the business chooses
 * to send the rest at the coming category's price and route, or not. Collected here, applied at the batch's end
 * like a template pause. A broadcast scheduled later is estimated in the coming category (categoryAt).
 */
export const collectCategoryHold: WebhookHandler = async (_client, change, batch) => {
  const update = parseTemplateCategoryUpdate(change.value);
  // `current` is the category it has now in Meta's notice: a notice for that category changes nothing.
  if (!update?.coming || update.current === update.coming) return;
  broadcastWrites(batch).pauses.push({
    wabaId: change.wabaId,
    metaTemplateId: update.templateId,
    verb: 'recategorised',
    category: update.coming,
    at: update.at,
  });
};
