import { setPortfolioTier } from '../broadcasts/index';
import type { WebhookHandler } from '../webhooks/index';

interface CapabilityUpdate {
  max_daily_conversations_per_business?: unknown;
  /** Older payloads (Meta removes it in 2026): a number of users, -1 for unlimited. */
  max_daily_conversation_per_phone?: unknown;
}

interface QualityUpdate {
  display_phone_number?: string;
  event?: string;
  current_limit?: unknown;
  max_daily_conversations_per_business?: unknown;
}

/** A quality event's effect on the number's status; other events (DOWNGRADE, UPGRADE, …) leave it. */
const STATUS_OF_EVENT: Record<string, string> = { FLAGGED: 'FLAGGED', UNFLAGGED: 'CONNECTED' };

/** Meta's `throughput.level` after a THROUGHPUT_UPGRADE (1,000 messages a second instead of 80). */
const HIGH_THROUGHPUT = 'HIGH';

/** The Herald account the entry names (entry.id is the WABA); a webhook only touches that account. */
async function wabaAccountId(client: Parameters<WebhookHandler>[0], wabaId: string): Promise<number | null> {
  const { rows } = await client.query<{ id: number }>(
    'select id::int from waba_accounts where waba_id = $1',
    [wabaId],
  );
  return rows[0]?.id ?? null;
}

/**
 * `business_capability_update`: the portfolio's messaging limit changed. A higher limit applies to the next
 * batch of every number of the portfolio (messaging-limit.ts lets waiting broadcasts go).
 */
export const applyCapabilityUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as CapabilityUpdate | undefined;
  const tier = update?.max_daily_conversations_per_business ?? update?.max_daily_conversation_per_phone;
  if (tier === undefined || tier === null) return;
  const id = await wabaAccountId(client, change.wabaId);
  if (id !== null) await setPortfolioTier(client, id, tier);
};

/**
 * The messaging limit a quality event carries, from the fields Meta defines for it. THROUGHPUT_UPGRADE's
 * `current_limit` is TIER_UNLIMITED because the number's throughput was raised, not because the portfolio may
 * reach unlimited users, so only `max_daily_conversations_per_business` counts there. The other events keep
 * `current_limit` as a fallback: older payloads (before Meta removes it in 2026) carry the limit only there.
 * Undefined when the event carries none: the stored limit is then left alone.
 */
function limitOfQualityEvent(update: QualityUpdate): unknown {
  const limit =
    update.event === 'THROUGHPUT_UPGRADE'
      ? update.max_daily_conversations_per_business
      : (update.max_daily_conversations_per_business ?? update.current_limit);
  return limit ?? undefined;
}

/**
 * `phone_number_quality_update`: FLAGGED and UNFLAGGED change whether the number may send (its status);
 * THROUGHPUT_UPGRADE moves the number to Meta's high throughput level, which the sender paces at from its next
 * batch; a limit change (DOWNGRADE, UPGRADE) carries the portfolio's new tier. The number is
 * named by its display number, digits only in webhooks (Meta's Cloud API documentation).
 */
export const applyPhoneQualityUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as QualityUpdate | undefined;
  if (!update?.event) return;
  const id = await wabaAccountId(client, change.wabaId);
  if (id === null) return;
  const status = STATUS_OF_EVENT[update.event];
  const digits = (update.display_phone_number ?? '').replace(/\D/g, '');
  if (status && digits) {
    await client.query(
      `update phone_numbers set status = $3, synced_at = now()
        where waba_account_id = $1 and regexp_replace(display_phone_number, '\\D', '', 'g') = $2
          and status is distinct from $3`,
      [id, digits, status],
    );
  }
  if (update.event === 'THROUGHPUT_UPGRADE' && digits) {
    await client.query(
      `update phone_numbers set throughput_level = $3, synced_at = now()
        where waba_account_id = $1 and regexp_replace(display_phone_number, '\\D', '', 'g') = $2
          and throughput_level is distinct from $3`,
      [id, digits, HIGH_THROUGHPUT],
    );
  }
  const tier = limitOfQualityEvent(update);
  if (tier !== undefined) await setPortfolioTier(client, id, tier);
};

interface NameUpdate {
  display_phone_number?: unknown;
  decision?: unknown;
  requested_verified_name?: unknown;
}

/**
 * `phone_number_name_update`: Meta reviewed the display name asked for the number. APPROVED makes it the
 * number's verified name, shown wherever Herald names the number; a rejected or deferred name changes nothing
 * (the number keeps the name it had). The number is named by its display number, digits only.
 */
export const applyPhoneNameUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as NameUpdate | undefined;
  const name =
    typeof update?.requested_verified_name === 'string' ? update.requested_verified_name.trim() : '';
  const digits =
    typeof update?.display_phone_number === 'string' ? update.display_phone_number.replace(/\D/g, '') : '';
  if (update?.decision !== 'APPROVED' || name === '' || digits === '') return;
  const id = await wabaAccountId(client, change.wabaId);
  if (id === null) return;
  await client.query(
    `update phone_numbers set verified_name = $3, synced_at = now()
      where waba_account_id = $1 and regexp_replace(display_phone_number, '\\D', '', 'g') = $2
        and verified_name is distinct from $3`,
    [id, digits, name.slice(0, 200)],
  );
};
