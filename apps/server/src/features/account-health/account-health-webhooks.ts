import {
  accountPauseReason,
  BAN_LIFTED,
  BAN_STOPS_SENDING,
  RESTRICTION_STOPS_BROADCASTS,
  type AccountRestriction,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import { lockBroadcasts, pauseLockedBroadcasts } from '../broadcasts/index';
import type { WebhookHandler } from '../webhooks/index';

/** The account_update events about the account's standing; the others (partner, pricing, …) are not ours. */
const HEALTH_EVENTS = new Set(['DISABLED_UPDATE', 'ACCOUNT_RESTRICTION', 'ACCOUNT_VIOLATION']);

interface AccountUpdate {
  event?: unknown;
  ban_info?: { waba_ban_state?: unknown; waba_ban_date?: unknown };
  restriction_info?: unknown;
  violation_info?: { violation_type?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * A time Meta wrote as a Unix time (seconds, as a number or digits), an ISO 8601 text (also with a "+0000"
 * offset, which JavaScript's parser refuses) or a date in words; as ISO 8601, or null when unreadable.
 */
export function metaTime(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
    const n = Number(value);
    ms = n > 1e12 ? n : n * 1000;
  } else if (typeof value === 'string') {
    ms = Date.parse(value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  } else {
    return null;
  }
  return Number.isFinite(ms) && !Number.isNaN(new Date(ms).getTime()) ? new Date(ms).toISOString() : null;
}

function restrictionsOf(value: unknown): AccountRestriction[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: { restriction_type?: unknown; expiration?: unknown } | null) => {
    const type = text(item?.restriction_type);
    return type ? [{ type, expires_at: metaTime(item?.expiration) }] : [];
  });
}

async function accountOf(client: PoolClient, wabaId: string): Promise<number | null> {
  const { rows } = await client.query<{ id: number }>(
    'select id::int from waba_accounts where waba_id = $1',
    [wabaId],
  );
  return rows[0]?.id ?? null;
}

/**
 * Pauses every broadcast of the account that is sending or scheduled, with the reason, through the broadcasts
 * feature's own pause (which also stops a batch in flight). A broadcast already paused keeps its own reason.
 */
async function pauseAccountBroadcasts(client: PoolClient, accountId: number, reason: string): Promise<void> {
  const { rows } = await client.query<{ id: number }>(
    `select id::int from broadcasts where waba_account_id = $1 and status in ('sending', 'scheduled')`,
    [accountId],
  );
  const ids = rows.map((r) => r.id);
  await lockBroadcasts(client, ids);
  await pauseLockedBroadcasts(
    client,
    ids.map((id) => ({ id, reason })),
    ['sending', 'scheduled'],
  );
}

async function applyBan(client: PoolClient, accountId: number, update: AccountUpdate): Promise<void> {
  const state = text(update.ban_info?.waba_ban_state);
  if (!state) return;
  const rawDate = update.ban_info?.waba_ban_date;
  const date = text(rawDate) ?? (typeof rawDate === 'number' ? String(rawDate) : null);
  // REINSTATE lifts the ban: nothing left to show. Broadcasts it paused stay paused (the user resumes them).
  const lifted = state === BAN_LIFTED;
  await client.query(
    `insert into account_health as h (waba_account_id, ban_state, ban_date, ban_since)
     values ($1, $2, $3, case when $2::text is null then null else now() end)
     on conflict (waba_account_id) do update set
       ban_state = excluded.ban_state, ban_date = excluded.ban_date, updated_at = now(),
       -- A repeated state (Meta delivers at least once, or re-sends) keeps the time it first came.
       ban_since = case when h.ban_state is not distinct from excluded.ban_state then h.ban_since
                        else excluded.ban_since end`,
    [accountId, lifted ? null : state, lifted ? null : date],
  );
  if (state === BAN_STOPS_SENDING) await pauseAccountBroadcasts(client, accountId, accountPauseReason('ban'));
}

async function applyRestriction(client: PoolClient, accountId: number, update: AccountUpdate): Promise<void> {
  // Each ACCOUNT_RESTRICTION lists the restrictions in force: an empty list lifts them all.
  const restrictions = restrictionsOf(update.restriction_info);
  await client.query(
    `insert into account_health (waba_account_id, restrictions, restricted_since)
     values ($1, $2::jsonb, case when jsonb_array_length($2::jsonb) = 0 then null else now() end)
     on conflict (waba_account_id) do update set
       restrictions = excluded.restrictions, restricted_since = excluded.restricted_since, updated_at = now()`,
    [accountId, JSON.stringify(restrictions)],
  );
  const now = Date.now();
  const stopsBroadcasts = restrictions.some(
    (r) =>
      r.type === RESTRICTION_STOPS_BROADCASTS && (r.expires_at === null || Date.parse(r.expires_at) > now),
  );
  if (stopsBroadcasts) await pauseAccountBroadcasts(client, accountId, accountPauseReason('restriction'));
}

async function applyViolation(client: PoolClient, accountId: number, update: AccountUpdate): Promise<void> {
  const type = text(update.violation_info?.violation_type);
  if (!type) return;
  await client.query(
    `insert into account_health (waba_account_id, violation_type, violation_at) values ($1, $2, now())
     on conflict (waba_account_id) do update set
       violation_type = excluded.violation_type, violation_at = excluded.violation_at, updated_at = now()`,
    [accountId, type],
  );
}

/**
 * `account_update` about the account's standing: a ban (DISABLED_UPDATE), restrictions (ACCOUNT_RESTRICTION)
 * or a policy violation (ACCOUNT_VIOLATION). Each is kept as it came and updates the account's state, which
 * the banner reads. A ban (DISABLE) or a restriction of business-initiated messaging pauses the account's
 * sending and scheduled broadcasts; nothing resumes by itself when it is lifted (decision 077).
 */
export const applyAccountUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as AccountUpdate | undefined;
  const event = text(update?.event);
  if (!update || !event || !HEALTH_EVENTS.has(event)) return;
  const accountId = await accountOf(client, change.wabaId);
  if (accountId === null) return;
  await client.query(
    'insert into account_health_events (waba_account_id, event, value) values ($1, $2, $3::jsonb)',
    [accountId, event, JSON.stringify(update)],
  );
  if (event === 'DISABLED_UPDATE') await applyBan(client, accountId, update);
  else if (event === 'ACCOUNT_RESTRICTION') await applyRestriction(client, accountId, update);
  else await applyViolation(client, accountId, update);
};
