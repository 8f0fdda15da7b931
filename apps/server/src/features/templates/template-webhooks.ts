import type { WebhookHandler } from '../webhooks/index';

interface StatusUpdate {
  event?: string;
  message_template_id?: number | string;
  reason?: string | null;
}

interface QualityUpdate {
  message_template_id?: number | string;
  new_quality_score?: string;
}

// FLAGGED keeps a template usable (quality warning); REINSTATED lifts a pause or disable.
const STATUS_OF_EVENT: Record<string, string> = { REINSTATED: 'APPROVED', FLAGGED: 'APPROVED' };

/**
 * `message_template_status_update`: Meta's verdict on a template. Matched by Meta's id *and* the WABA the
 * entry names, so a webhook can only touch that account's templates. Re-applying the same update changes
 * nothing, so duplicates are harmless.
 */
export const applyTemplateStatusUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as StatusUpdate;
  if (!update?.event || update.message_template_id === undefined) return;
  const status = STATUS_OF_EVENT[update.event] ?? update.event;
  const reason = status === 'REJECTED' && update.reason && update.reason !== 'NONE' ? update.reason : null;
  await client.query(
    `update templates t set status = $3, rejected_reason = $4, updated_at = now()
       from waba_accounts w
      where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2
        and (t.status, coalesce(t.rejected_reason, '')) is distinct from ($3, coalesce($4, ''))`,
    [change.wabaId, String(update.message_template_id), status, reason],
  );
};

/** `message_template_quality_update`: the template's quality score changed. */
export const applyTemplateQualityUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as QualityUpdate;
  if (update?.message_template_id === undefined || !update.new_quality_score) return;
  await client.query(
    `update templates t set quality_score = $3, quality_score_date = now()
       from waba_accounts w
      where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2`,
    [change.wabaId, String(update.message_template_id), update.new_quality_score],
  );
};
