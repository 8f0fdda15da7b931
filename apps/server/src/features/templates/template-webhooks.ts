import { TEMPLATE_CATEGORIES } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { WebhookChange, WebhookHandler } from '../webhooks/index';

interface StatusUpdate {
  event?: string;
  message_template_id?: number | string;
  /** The template's category as Meta has it now (in every status notification since 2026). */
  message_template_category?: string;
  reason?: string | null;
  rejection_info?: { reason?: string | null; recommendation?: string | null } | null;
}

interface QualityUpdate {
  message_template_id?: number | string;
  new_quality_score?: string;
}

/** Events that are the template's new status, word for word. */
const STATUS_EVENTS = new Set([
  'APPROVED',
  'REJECTED',
  'PENDING',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
]);

// The template's row, matched by Meta's id *and* the WABA the entry names, so a webhook can only touch that
// account's templates.
const MATCH = `from waba_accounts w
  where t.waba_account_id = w.id and w.waba_id = $1 and t.meta_template_id = $2`;

type Apply = (client: PoolClient, change: WebhookChange, update: StatusUpdate) => Promise<unknown>;

const keyOf = (change: WebhookChange, update: StatusUpdate) => [
  change.wabaId,
  String(update.message_template_id),
];

/** Sets the status (REINSTATED is APPROVED again); a REJECTED one keeps Meta's reason and its explanation. */
function setStatus(status: string): Apply {
  return (client, change, update) => {
    const rejected = status === 'REJECTED';
    const reason = rejected && update.reason && update.reason !== 'NONE' ? update.reason : null;
    const info = rejected ? update.rejection_info : null;
    return client.query(
      `update templates t set status = $3, rejected_reason = $4, rejection_detail = $5,
              rejection_recommendation = $6, status_before_archive = null, updated_at = now()
       ${MATCH}
        and (t.status, t.rejected_reason, t.rejection_detail, t.rejection_recommendation)
            is distinct from ($3, $4, $5, $6)`,
      [...keyOf(change, update), status, reason, info?.reason || null, info?.recommendation || null],
    );
  };
}

/**
 * What each event does. ARCHIVED hides the template from sending (New broadcast offers APPROVED ones only) and
 * remembers its status for UNARCHIVED, which names none. LOCKED and FLAGGED leave a sendable template
 * sendable: the first refuses edits, the second warns. An event not listed (LIMIT_EXCEEDED is the account's,
 * see below; anything Meta adds later) leaves the template as it is: the event stays in `webhook_events`.
 */
const APPLY: Record<string, Apply> = {
  ...Object.fromEntries([...STATUS_EVENTS].map((event) => [event, setStatus(event)])),
  REINSTATED: setStatus('APPROVED'),
  ARCHIVED: (client, change, update) =>
    client.query(
      `update templates t set status_before_archive = t.status, status = 'ARCHIVED', updated_at = now()
       ${MATCH} and t.status <> 'ARCHIVED'`,
      keyOf(change, update),
    ),
  UNARCHIVED: (client, change, update) =>
    client.query(
      `update templates t set status = coalesce(t.status_before_archive, 'APPROVED'),
              status_before_archive = null, updated_at = now()
       ${MATCH} and t.status = 'ARCHIVED'`,
      keyOf(change, update),
    ),
  LOCKED: (client, change, update) =>
    client.query(`update templates t set locked = true, updated_at = now() ${MATCH} and not t.locked`, [
      ...keyOf(change, update),
    ]),
  // Implied by Meta's other_info ("locked or unlocked"), not in its event list: honoured when it comes.
  UNLOCKED: (client, change, update) =>
    client.query(`update templates t set locked = false, updated_at = now() ${MATCH} and t.locked`, [
      ...keyOf(change, update),
    ]),
  FLAGGED: (client, change, update) =>
    client.query(
      `update templates t set flagged_at = now(), updated_at = now() ${MATCH} and t.flagged_at is null`,
      keyOf(change, update),
    ),
};

/**
 * `message_template_status_update`: Meta's verdict on a template. Re-applying the same update changes nothing,
 * so duplicates are harmless.
 */
export const applyTemplateStatusUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as StatusUpdate;
  if (!update?.event) return;
  if (update.event === 'LIMIT_EXCEEDED') {
    // The account has reached its template limit: said of the account, whichever template it names.
    await client.query('update waba_accounts set template_limit_exceeded_at = now() where waba_id = $1', [
      change.wabaId,
    ]);
    return;
  }
  if (update.message_template_id === undefined) return;
  await APPLY[update.event]?.(client, change, update);
  // Meta may approve a template under another category than asked, or have changed it since: its word holds.
  const category = update.message_template_category?.toUpperCase();
  if (category && (TEMPLATE_CATEGORIES as readonly string[]).includes(category)) {
    await client.query(
      `update templates t set category = $3, updated_at = now() ${MATCH} and t.category is distinct from $3`,
      [...keyOf(change, update), category],
    );
  }
  // A template Meta reinstates or approves again is no longer at risk: its FLAGGED warning goes.
  if (update.event === 'REINSTATED' || update.event === 'APPROVED') {
    await client.query(
      `update templates t set flagged_at = null ${MATCH} and t.flagged_at is not null`,
      keyOf(change, update),
    );
  }
};

/** `message_template_quality_update`: the template's quality score changed. */
export const applyTemplateQualityUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as QualityUpdate;
  if (update?.message_template_id === undefined || !update.new_quality_score) return;
  await client.query(`update templates t set quality_score = $3, quality_score_date = now() ${MATCH}`, [
    change.wabaId,
    String(update.message_template_id),
    update.new_quality_score,
  ]);
};
