import { metaErrorCodes } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { lockMessageRows, type MessageRowKey } from '../../db/message-row-locks';
import type {
  MessageStatus,
  MessagesValue,
  WebhookBatch,
  WebhookChange,
  WebhookHandler,
} from '../webhooks/index';
import { lockBroadcasts, markCountsStale } from './broadcast-counts';
import { LIMITED_RETRY_DELAY } from './message-settle';
import { linkLockedReplies, replyTargets, type NewInbound } from './reply-links';
import { broadcastsToPause, pauseLockedBroadcasts, type TemplatePause } from './template-pause';

/**
 * The codes of a failure with an outcome of its own, as a SQL list: Meta's rule, read from contracts
 * (meta-outcomes.ts) like the sender's, never re-typed here. Plain integers, so safe in the statement's text.
 */
const codesOf = (outcome: 'limited' | 'not_on_whatsapp') => metaErrorCodes(outcome).map(Number).join(', ');
const LIMITED_CODES = codesOf('limited');
const NOT_ON_WHATSAPP_CODES = codesOf('not_on_whatsapp');

/** How far a status takes a message: a status only ever moves a row to a higher rank (decision 022). */
const RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3, failed: 10 };

/** One status, reduced to what the statement needs; anything not of the expected type becomes null. */
export interface IncomingStatus {
  wabaId: string;
  rowId: string | null;
  wamid: string | null;
  status: string;
  code: number | null;
  title: string | null;
  /** The status's `pricing` (decision 048): stored with the message; null where absent or not as expected. */
  billable: boolean | null;
  pricingModel: string | null;
  pricingCategory: string | null;
  pricingType: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const int32 = (value: unknown) =>
  Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? (value as number) : null;

/** A pricing word as Meta writes them (`marketing_lite`, `free_entry_point`, `PMP`); anything else is dropped. */
const pricingWord = (value: unknown) =>
  typeof value === 'string' && /^[A-Za-z_]{1,40}$/.test(value) ? value : null;

function incoming(wabaId: string, status: MessageStatus & { pricing?: unknown }): IncomingStatus {
  const error = Array.isArray(status.errors) ? status.errors[0] : undefined;
  const pricing = (status.pricing && typeof status.pricing === 'object' ? status.pricing : {}) as Record<
    string,
    unknown
  >;
  return {
    wabaId,
    rowId: text(status.biz_opaque_callback_data),
    wamid: text(status.id),
    status: status.status!,
    code: status.status === 'failed' ? int32(error?.code) : null,
    title: status.status === 'failed' ? (text(error?.title) ?? text(error?.message) ?? 'Failed') : null,
    billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
    pricingModel: pricingWord(pricing.pricing_model),
    pricingCategory: pricingWord(pricing.category),
    pricingType: pricingWord(pricing.type),
  };
}

/**
 * `messages` webhooks: delivery statuses of broadcast messages, found by `biz_opaque_callback_data` (the row
 * id Herald sent) or the wamid, and only within the WABA the entry names. States only move forward, so
 * duplicates and out-of-order deliveries change nothing; an unconfirmed or unknown row is settled by its first
 * status. Each event only collects its statuses: the batch applies them all at its end in one statement, taking
 * its locks in the one order every writer uses (broadcast rows, then message rows, each by id; decision 022),
 * so concurrent batches and the senders' settles cannot deadlock; then it marks the broadcasts' counters stale.
 */
export const applyMessageStatuses: WebhookHandler = async (_client, change, batch) => {
  const statuses = statusesOf(change);
  if (statuses.length === 0) return;
  broadcastWrites(batch).statuses.push(...statuses);
};

/** The statuses of one `messages` change this applier acts on (the repair sweep reads stored events with it). */
export function statusesOf(change: WebhookChange): IncomingStatus[] {
  return ((change.value as MessagesValue | undefined)?.statuses ?? [])
    .filter((s) => typeof s?.status === 'string' && RANK[s.status] !== undefined)
    .map((s) => incoming(change.wabaId, s));
}

/**
 * Applies statuses as a webhook batch applies them at its end (same lock order, same rules): the repair sweep
 * (status-repair.ts) re-applies through it the statuses rows stand below, so statuses have one writer.
 */
export async function reapplyStatuses(client: PoolClient, statuses: IncomingStatus[]): Promise<void> {
  await applyBroadcastWrites(client, { statuses, pauses: [], replies: [] });
}

/** What a webhook batch writes to broadcasts and their messages, applied once at its end under one lock order. */
interface BroadcastWrites {
  statuses: IncomingStatus[];
  /** Template status webhooks that pause broadcasts (template-pause-webhooks.ts). */
  pauses: TemplatePause[];
  /** Customers' messages to link to the broadcast messages they answer (replies/inbound-webhooks.ts; reply-links.ts). */
  replies: NewInbound[];
}

/** This batch's broadcast writes: status webhooks and template pauses share one end-of-batch step. */
export function broadcastWrites(batch: WebhookBatch): BroadcastWrites {
  return batch.collect(
    'broadcast-writes',
    () => ({ statuses: [], pauses: [], replies: [] }),
    applyBroadcastWrites,
  );
}

/**
 * Finds what the batch touches with plain reads, locks those broadcasts in id order, pauses the ones a template
 * pause stops, then updates the message rows (each in id order) and marks their counters stale: one lock order
 * (decision 022).
 */
async function applyBroadcastWrites(client: PoolClient, writes: BroadcastWrites): Promise<void> {
  const pausing = await broadcastsToPause(client, writes.pauses);
  const targets = await statusTargets(client, writes.statuses);
  const answered = await replyTargets(client, writes.replies);
  if (pausing.length === 0 && targets.length === 0 && answered.length === 0) return;
  const rows = [...targets, ...answered];
  await lockBroadcasts(client, [...pausing.map((p) => p.id), ...rows.map((r) => r.broadcastId)]);
  await pauseLockedBroadcasts(client, pausing);
  // The statuses' and the replies' rows in one statement, so they too are locked in one id order.
  await lockMessageRows(client, rows);
  if (targets.length > 0) await applyStatuses(client, writes.statuses, targets);
  // After the statuses, so a reply and its message's 'sent' in one batch link whatever their order.
  await linkLockedReplies(client, writes.replies, answered);
}

export const statusParams = (statuses: IncomingStatus[]) => [
  statuses.map((s) => s.wabaId),
  statuses.map((s) => s.rowId),
  statuses.map((s) => s.wamid),
  statuses.map((s) => s.status),
  statuses.map((s) => s.code),
  statuses.map((s) => s.title),
  statuses.map((s) => s.billable),
  statuses.map((s) => s.pricingModel),
  statuses.map((s) => s.pricingCategory),
  statuses.map((s) => s.pricingType),
];

/** The message rows the statuses name, within the WABA each entry names. A plain read: no lock yet. */
async function statusTargets(client: PoolClient, statuses: IncomingStatus[]): Promise<StatusTarget[]> {
  if (statuses.length === 0) return [];
  const { rows } = await client.query<StatusTarget>(
    `${STATUS_TARGETS_SQL} select id::int, waba_account_id::int as "accountId", broadcast_id::int as "broadcastId" from best`,
    statusParams(statuses),
  );
  return rows;
}

interface StatusTarget extends MessageRowKey {
  broadcastId: number;
}

/**
 * Applies statuses to their rows (`targets`), which the caller has locked with their broadcasts, each in a
 * statement of its own (lockMessageRows says why): the update reads them as they are now. A row found only now
 * (by a wamid the sender wrote meanwhile) is left to the repair sweep rather than written unlocked.
 */
async function applyStatuses(
  client: PoolClient,
  statuses: IncomingStatus[],
  targets: StatusTarget[],
): Promise<void> {
  await client.query(
    `${STATUS_TARGETS_SQL},
     -- The locked targets, materialized: the update joins each to its row by the primary key (joining the CTE
     -- 'best' directly was a nested loop over a CTE the planner believes has one row: quadratic in the batch,
     -- 10,000 statuses took seconds).
     locked as materialized (select * from best where id = any($11::bigint[]))
     update broadcast_messages m
        -- A failure that is not Herald's has its own outcome: limited by the marketing limit (sent again no
        -- sooner than a day later, limited-retry.ts), or not on WhatsApp (never again).
        set state = case when t.status <> 'failed' then t.status
                         when t.code in (${LIMITED_CODES}) then 'limited'
                         when t.code in (${NOT_ON_WHATSAPP_CODES}) then 'not_on_whatsapp'
                         else 'failed' end,
            wamid = coalesce(m.wamid, t.wamid),
            accepted_at = coalesce(m.accepted_at, now()),
            delivered_at = case when t.status in ('delivered', 'read') then coalesce(m.delivered_at, now()) else m.delivered_at end,
            read_at = case when t.status = 'read' then coalesce(m.read_at, now()) else m.read_at end,
            failed_at = case when t.status = 'failed' then now() else m.failed_at end,
            next_attempt_at = case when t.status = 'failed' and t.code in (${LIMITED_CODES})
                                   then now() + ${LIMITED_RETRY_DELAY} else m.next_attempt_at end,
            -- Only a failure keeps an error: a message WhatsApp sent shows neither an earlier attempt's error (a
            -- refused connection retried) nor an unknown outcome's explanation.
            error_code = case when t.status = 'failed' then t.code end,
            error_title = case when t.status = 'failed' then t.title end,
            -- The first pricing Meta states is kept (every later status repeats it), with the time it came:
            -- the day the rate card prices it at (decision 048).
            pricing_billable = coalesce(m.pricing_billable, t.billable),
            pricing_model = coalesce(m.pricing_model, t.pricing_model),
            pricing_category = coalesce(m.pricing_category, t.pricing_category),
            pricing_type = coalesce(m.pricing_type, t.pricing_type),
            priced_at = case when t.billable is not null then coalesce(m.priced_at, now()) else m.priced_at end
       from locked t
      where m.waba_account_id = t.waba_account_id and m.id = t.id and ${STATUS_MOVES_ROW}`,
    [...statusParams(statuses), targets.map((t) => t.id)],
  );
  await markCountsStale(client, [...new Set(targets.map((t) => t.broadcastId))]);
}

/**
 * Whether status `t` moves message row `m` forward: the one rule (decision 022), shared by the update above and
 * the repair sweep's search for rows that stand below a status (status-repair.ts).
 */
export const STATUS_MOVES_ROW = `(
  m.state not in ('failed', 'read', 'limited', 'not_on_whatsapp')
  -- A status of an earlier attempt (a limited message sent again has a new wamid) does not move this one.
  and (t.wamid is null or m.wamid is null or m.wamid = t.wamid)
  and (t.status = 'failed'
       or coalesce(array_position(array['sent', 'delivered', 'read'], m.state), 0)
          < array_position(array['sent', 'delivered', 'read'], t.status))
  and not (t.status = 'failed' and m.state = 'delivered'))`;

/**
 * Resolves each status to its message row of the account its WABA names (by the row id Herald sent, else by
 * wamid: both keys start with the account) and keeps the furthest per row. `targets` holds every status found,
 * with its place in the parameters (`status_index`, from 1); `best` one per row. Takes statusParams.
 */
export const STATUS_TARGETS_SQL = `
  with incoming as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[],
                         $7::boolean[], $8::text[], $9::text[], $10::text[]) with ordinality
              as x(waba_id, row_id, wamid, status, code, title,
                   billable, pricing_model, pricing_category, pricing_type, status_index)),
  targets as (
    select found.id, found.waba_account_id, found.broadcast_id, i.*,
           case i.status when 'failed' then 10 when 'read' then 3 when 'delivered' then 2 else 1 end as rank
      from incoming i
      join waba_accounts w on w.waba_id = i.waba_id
      -- One index lookup per status, whatever the statistics say (a join here may walk every message of
      -- the broadcast when they are stale, as after a start).
      cross join lateral (
        select m.id, m.waba_account_id, m.broadcast_id from broadcast_messages m
         where m.waba_account_id = w.id and m.id = case when i.row_id ~ '^[0-9]{1,18}$' then i.row_id::bigint end
        union all
        select m.id, m.waba_account_id, m.broadcast_id from broadcast_messages m
         where m.waba_account_id = w.id and m.wamid = i.wamid
        limit 1) found),
  best as (select distinct on (id) * from targets order by id, rank desc)`;
