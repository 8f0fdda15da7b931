import { setPortfolioTier } from '../broadcasts/index';
import { recordAccountEvent } from '../notifications/index';
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
  rejection_reason?: unknown;
}

const digitsOf = (value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

/**
 * `phone_number_name_update`: Meta reviewed the display name asked for the number. APPROVED makes it the
 * number's verified name, shown wherever Herald names the number. Any other decision (rejected, deferred)
 * leaves the number's name as it was and tells the business in the bell, with Meta's reason. The number is named
 * by its display number, digits only.
 */
export const applyPhoneNameUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as NameUpdate | undefined;
  const name =
    typeof update?.requested_verified_name === 'string' ? update.requested_verified_name.trim() : '';
  const digits = digitsOf(update?.display_phone_number);
  const decision = typeof update?.decision === 'string' ? update.decision : '';
  if (decision === '' || name === '' || digits === '') return;
  const id = await wabaAccountId(client, change.wabaId);
  if (id === null) return;
  if (decision !== 'APPROVED') {
    const reason = typeof update?.rejection_reason === 'string' ? update.rejection_reason.trim() : '';
    await recordAccountEvent(client, {
      accountId: id,
      kind: 'account_alert',
      title: `Display name ${decision.toLowerCase()}`,
      detail: `WhatsApp did not approve "${name.slice(0, 200)}" for +${digits}${reason && reason !== 'NONE' ? `: ${reason}` : ''}. The number keeps its current name.`,
      oncePerDay: true,
    });
    return;
  }
  await client.query(
    `update phone_numbers set verified_name = $3, synced_at = now()
      where waba_account_id = $1 and regexp_replace(display_phone_number, '\\D', '', 'g') = $2
        and verified_name is distinct from $3`,
    [id, digits, name.slice(0, 200)],
  );
};

const SECURITY_WORDS: Record<string, { title: string; detail: string; pinGone: boolean }> = {
  PIN_CHANGED: {
    title: 'Two-step PIN changed',
    detail:
      "The number's two-step verification PIN was changed outside Herald. Herald no longer holds the current PIN.",
    pinGone: true,
  },
  PIN_RESET_REQUEST: {
    title: 'Two-step PIN reset requested',
    detail:
      'Someone asked to turn off two-step verification on the number. If it was not your team, secure your Meta Business account.',
    pinGone: false,
  },
  PIN_REQUEST_SUCCESS: {
    title: 'Two-step verification turned off',
    detail: 'Two-step verification was turned off on the number. Herald no longer holds a PIN for it.',
    pinGone: true,
  },
};

/**
 * `security`: a change to the number's two-step verification. Each is said in the bell; a changed or removed
 * PIN also drops the one Herald kept from sign-up (encrypted), which is no longer the number's.
 */
export const applySecurityEvent: WebhookHandler = async (client, change) => {
  const update = change.value as { display_phone_number?: unknown; event?: unknown } | undefined;
  const words = typeof update?.event === 'string' ? SECURITY_WORDS[update.event] : undefined;
  const digits = digitsOf(update?.display_phone_number);
  if (!words || digits === '') return;
  const id = await wabaAccountId(client, change.wabaId);
  if (id === null) return;
  if (words.pinGone) {
    await client.query(
      `update phone_numbers set two_step_pin_encrypted = null
        where waba_account_id = $1 and regexp_replace(display_phone_number, '\\D', '', 'g') = $2
          and two_step_pin_encrypted is not null`,
      [id, digits],
    );
  }
  await recordAccountEvent(client, {
    accountId: id,
    kind: 'account_alert',
    title: `${words.title} (+${digits})`,
    detail: words.detail,
    oncePerDay: true,
  });
};
