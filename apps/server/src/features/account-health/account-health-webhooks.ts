import {
  accountHealthNotices,
  accountPauseReason,
  accountSendingStop,
  BAN_LIFTED,
  BAN_STOPS_SENDING,
  DISCONNECTING_EVENTS,
  RECONNECTING_EVENTS,
  RESTRICTION_STOPS_BROADCASTS,
  REVIEW_APPROVED,
  type AccountHealthPart,
  type AccountRestriction,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import { lockBroadcasts, pauseLockedBroadcasts } from '../broadcasts/index';
import { recordAccountEvent } from '../notifications/index';
import type { WebhookChange, WebhookHandler } from '../webhooks/index';
import { readAccountHealth } from './account-health-repo';
import { metaTime } from './meta-time';

/** How the review's events are kept among the account_update ones. */
const REVIEW_EVENT = 'account_review_update';

interface AccountUpdate {
  event?: unknown;
  ban_info?: { waba_ban_state?: unknown; waba_ban_date?: unknown };
  restriction_info?: unknown;
  violation_info?: { violation_type?: unknown };
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

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

const DISCONNECTIONS = Object.keys(DISCONNECTING_EVENTS);

/** Which part of the account's standing each event sets; `account_review_update` is the review's. */
const PART_OF: Record<string, AccountHealthPart> = {
  DISABLED_UPDATE: 'ban',
  ACCOUNT_RESTRICTION: 'restriction',
  ACCOUNT_VIOLATION: 'violation',
  ...Object.fromEntries([...DISCONNECTIONS, ...RECONNECTING_EVENTS].map((e) => [e, 'connection'])),
  [REVIEW_EVENT]: 'review',
};
const EVENTS_OF = (part: AccountHealthPart) => Object.keys(PART_OF).filter((e) => PART_OF[e] === part);

async function applyConnection(client: PoolClient, accountId: number, event: string): Promise<void> {
  if (DISCONNECTING_EVENTS[event]) {
    await client.query(
      `update account_health set disconnected_by = $2, updated_at = now(),
         disconnected_since = case when disconnected_by is not distinct from $2 then disconnected_since else now() end
       where waba_account_id = $1`,
      [accountId, event],
    );
    await pauseAccountBroadcasts(client, accountId, accountPauseReason({ disconnected: event }));
    return;
  }
  // A reconnection undoes only the disconnection it answers (PARTNER_ADDED does not undo a deleted account).
  const undone = DISCONNECTIONS.filter((d) => DISCONNECTING_EVENTS[d]!.includes(event));
  await client.query(
    `update account_health set disconnected_by = null, disconnected_since = null, updated_at = now()
      where waba_account_id = $1 and disconnected_by = any($2)`,
    [accountId, undone],
  );
}

async function applyReview(client: PoolClient, accountId: number, decision: string | null): Promise<void> {
  if (!decision) return;
  const holds = decision !== REVIEW_APPROVED;
  await client.query(
    `update account_health set review_decision = $2, updated_at = now(),
       review_since = case when $2::text is null then null
                           when review_decision is not distinct from $2 then review_since else now() end
     where waba_account_id = $1`,
    [accountId, holds ? decision : null],
  );
  if (holds) await pauseAccountBroadcasts(client, accountId, accountPauseReason({ review: decision }));
}

/** The bell's title for an event that changed the account's standing. */
function eventTitle(event: string, value: AccountUpdate & { decision?: unknown }): string {
  switch (event) {
    case 'DISABLED_UPDATE': {
      const state = text(value.ban_info?.waba_ban_state);
      if (state === BAN_STOPS_SENDING) return 'disabled by WhatsApp';
      if (state === BAN_LIFTED) return 'reinstated by WhatsApp';
      if (state === 'SCHEDULE_FOR_DISABLE') return 'WhatsApp will disable it';
      return `ban status ${state}`;
    }
    case 'ACCOUNT_RESTRICTION':
      return restrictionsOf(value.restriction_info).length === 0
        ? 'restrictions lifted'
        : 'restricted by WhatsApp';
    case 'ACCOUNT_VIOLATION':
      return `policy violation (${text(value.violation_info?.violation_type)})`;
    case REVIEW_EVENT:
      return `review ${String(text(value.decision)).toLowerCase()}`;
    default:
      return CONNECTION_TITLES[event] ?? event;
  }
}

const CONNECTION_TITLES: Record<string, string> = {
  ACCOUNT_DELETED: 'deleted by WhatsApp',
  ACCOUNT_OFFBOARDED: 'disconnected from Herald',
  ACCOUNT_RECONNECTED: 'reconnected to Herald',
  PARTNER_REMOVED: 'Herald removed as partner',
  PARTNER_ADDED: 'Herald added as partner',
  PARTNER_APP_UNINSTALLED: "Herald's permissions revoked",
  PARTNER_APP_INSTALLED: "Herald's permissions granted",
};

/** The banner's words for one part of the account's standing, and what still stops sending if anything. */
async function partNotices(client: PoolClient, accountId: number, part: AccountHealthPart) {
  const health = await readAccountHealth(client, accountId);
  const words = accountHealthNotices(health)
    .filter((n) => n.part === part)
    .map((n) => n.text)
    .join(' ');
  return { words, stop: accountSendingStop(health) };
}

/**
 * Applies one event about the account's standing, in Meta's order: the account's row is locked, the event is
 * kept as it came, and it changes its part of the standing only if no event Meta says is newer already has (a
 * late delivery never undoes a newer state). A change the banner shows differently also reaches the bell.
 */
async function applyStandingEvent(
  client: PoolClient,
  change: WebhookChange,
  event: string,
  value: AccountUpdate & { decision?: unknown },
): Promise<void> {
  const accountId = await accountOf(client, change.wabaId);
  if (accountId === null) return;
  const part = PART_OF[event]!;
  await client.query('insert into account_health (waba_account_id) values ($1) on conflict do nothing', [
    accountId,
  ]);
  await client.query('select 1 from account_health where waba_account_id = $1 for update', [accountId]);
  const metaTime = change.time === undefined ? null : change.time;
  const { rows } = await client.query<{ stale: boolean }>(
    `select exists (select 1 from account_health_events
                     where waba_account_id = $1 and event = any($2) and meta_time > to_timestamp($3)) as stale`,
    [accountId, EVENTS_OF(part), metaTime],
  );
  await client.query(
    `insert into account_health_events (waba_account_id, event, value, meta_time)
     values ($1, $2, $3::jsonb, to_timestamp($4))`,
    [accountId, event, JSON.stringify(value), metaTime],
  );
  if (rows[0]!.stale) return;
  const before = (await partNotices(client, accountId, part)).words;
  if (part === 'ban') await applyBan(client, accountId, value);
  else if (part === 'restriction') await applyRestriction(client, accountId, value);
  else if (part === 'violation') await applyViolation(client, accountId, value);
  else if (part === 'connection') await applyConnection(client, accountId, event);
  else await applyReview(client, accountId, text(value.decision));
  const after = await partNotices(client, accountId, part);
  if (after.words === before) return;
  // A lifting event has no banner line of its own: say whether sending may start again.
  const lifted = after.stop
    ? `Sending is still stopped: ${after.stop}.`
    : 'Nothing stops sending any more. Broadcasts it paused stay paused until you resume them.';
  await recordAccountEvent(client, {
    accountId,
    kind: 'account_standing',
    title: eventTitle(event, value),
    detail: after.words || lifted,
  });
}

/**
 * `account_update` about the account's standing: a ban (DISABLED_UPDATE), restrictions (ACCOUNT_RESTRICTION),
 * a policy violation (ACCOUNT_VIOLATION), or Herald losing or regaining access to the account (deleted,
 * offboarded, partner or app removed, and their reconnections). Each is kept as it came and updates the
 * account's state, which the banner reads. What stops sending pauses the account's sending and scheduled
 * broadcasts; nothing resumes by itself when it is lifted (decisions 077 and 086).
 */
export const applyAccountUpdate: WebhookHandler = async (client, change) => {
  const update = change.value as AccountUpdate | undefined;
  const event = text(update?.event);
  if (!update || !event || !PART_OF[event] || event === REVIEW_EVENT) return;
  await applyStandingEvent(client, change, event, update);
};

/**
 * `account_review_update`: Meta's review of the account. REJECTED, PENDING and DEFERRED mean the account cannot
 * use the APIs (Meta's reference): its broadcasts pause and sending is refused until an APPROVED decision.
 */
export const applyAccountReview: WebhookHandler = async (client, change) => {
  const value = change.value as { decision?: unknown } | undefined;
  if (!value || !text(value.decision)) return;
  await applyStandingEvent(client, change, REVIEW_EVENT, value);
};
