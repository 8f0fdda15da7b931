import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';
import { linkSql, replyParams, type NewInbound, type ReplyTarget } from '../statuses/reply-links';
import { inLocked, LIMITED_RETRY_DELAY, LOCKED, onLocked } from './locks';
import {
  FAILURE_IS_EXPIRY,
  LIMITED_CODES,
  NOT_ON_WHATSAPP_CODES,
  ROW_HAS_FAILURE,
  STATUS_FAILS_ROW,
  STATUS_MOVES_ROW,
  STATUS_RAISES_ROW,
  STATUS_TARGETS_SQL,
  statusParams,
  type IncomingStatus,
} from './status-sql';

/** The title of a failure Meta reported without an error, on a row it delivered (plain text, safe in SQL). */
const FAILURE_WITHOUT_ERROR = 'Meta reported the message failed';

/**
 * Any state not final → sent, delivered, read, failed, limited or not_on_whatsapp, as far as STATUS_MOVES_ROW
 * allows (forward only); failed → delivered or read when Meta reports the failed message delivered, and a failure
 * of a delivered or read row recorded without changing its state (decision 078). The statuses' rows
 * (`targetIds`) are locked by the caller with their broadcasts, each in a statement of its own (lockMessageRows
 * says why): the update reads them as they are now. A row found only now
 * (by a wamid the sender wrote meanwhile) is left to the repair sweep rather than written unlocked.
 */
export async function applyStatuses(
  client: PoolClient,
  statuses: IncomingStatus[],
  targetIds: number[],
): Promise<void> {
  await client.query(
    `${STATUS_TARGETS_SQL},
     -- The locked targets, materialized: the update joins each to its row by the primary key (joining the CTE
     -- 'best' directly was a nested loop over a CTE the planner believes has one row: quadratic in the batch,
     -- 10,000 statuses took seconds).
     locked as materialized (select * from best where id = any($13::bigint[]))
     update broadcast_messages m
        -- A failure that is not Herald's has its own outcome: expired at the end of its time-to-live, limited by the marketing limit (sent again no
        -- sooner than a day later, limited-retry.ts), or not on WhatsApp (never again). A failure of a row Meta
        -- delivered leaves its state (decision 078).
        set state = case when ${STATUS_RAISES_ROW} then t.status
                         when not ${STATUS_FAILS_ROW} then m.state
                         when ${FAILURE_IS_EXPIRY} then 'expired'
                         when t.failure_code in (${LIMITED_CODES}) then 'limited'
                         when t.failure_code in (${NOT_ON_WHATSAPP_CODES}) then 'not_on_whatsapp'
                         else 'failed' end,
            wamid = coalesce(m.wamid, t.wamid),
            accepted_at = coalesce(m.accepted_at, now()),
            delivered_at = case when t.status in ('delivered', 'read') then coalesce(m.delivered_at, now()) else m.delivered_at end,
            read_at = case when t.status = 'read' then coalesce(m.read_at, now()) else m.read_at end,
            failed_at = case when t.failure and not ${ROW_HAS_FAILURE} then now() else m.failed_at end,
            next_attempt_at = case when ${STATUS_FAILS_ROW} and t.failure_code in (${LIMITED_CODES})
                                   then now() + ${LIMITED_RETRY_DELAY} else m.next_attempt_at end,
            -- Only a failure Meta reported for this message keeps an error, delivered or not (the first one it
            -- reported): a message WhatsApp sent shows neither an earlier attempt's error (a refused connection
            -- retried) nor an unknown outcome's explanation. A delivered row's failure always has a title, so it
            -- reads as recorded (ROW_HAS_FAILURE) even when Meta sent no error with it.
            error_code = case when ${ROW_HAS_FAILURE} then m.error_code
                              when t.failure then t.failure_code end,
            error_title = case when m.state in ('failed', 'expired') and ${STATUS_RAISES_ROW}
                               then coalesce(m.error_title, '${FAILURE_WITHOUT_ERROR}')
                               when ${ROW_HAS_FAILURE} then m.error_title
                               when t.failure and not ${STATUS_FAILS_ROW}
                               then coalesce(t.failure_title, '${FAILURE_WITHOUT_ERROR}')
                               when t.failure then t.failure_title end,
            -- The first pricing Meta states is kept (every later status repeats it), with the time it came:
            -- the day the rate card prices it at (decision 048).
            pricing_billable = coalesce(m.pricing_billable, t.billable),
            pricing_model = coalesce(m.pricing_model, t.pricing_model),
            pricing_category = coalesce(m.pricing_category, t.pricing_category),
            pricing_type = coalesce(m.pricing_type, t.pricing_type),
            pricing_cost = coalesce(m.pricing_cost, t.stated_cost),
            priced_at = case when t.billable is not null then coalesce(m.priced_at, now()) else m.priced_at end
       from locked t
      where m.waba_account_id = t.waba_account_id and m.id = t.id and ${STATUS_MOVES_ROW}`,
    [...statusParams(statuses), targetIds],
  );
}

/**
 * No state change: links replies to the messages they answer, among the message rows the caller has locked
 * (`targets`, with their broadcasts; lockMessageRows says why the lock comes in a statement of its own). In
 * the same statement the inbound row names its message; the message keeps its earliest answer (reply_id and
 * engaged_at; replied_at for a written one), whatever order the webhooks came in; the broadcast counts its
 * recipients who replied. The message update's trigger moves the Dashboard's figures too (migration 015).
 */
export async function recordReplies(
  client: PoolClient,
  replies: NewInbound[],
  targets: ReplyTarget[],
): Promise<void> {
  if (replies.length === 0 || targets.length === 0) return;
  await client.query(
    `${linkSql(['sent', 'delivered', 'read'], 'and b.id = any($9::bigint[])')},
     linked as (update inbound_messages i set broadcast_message_id = t.message_id
                  from t where i.waba_account_id = t.account and i.id = t.inbound_id),
     agg as (
       select account, message_id, (array_agg(inbound_id order by sent_at, inbound_id))[1] as first_id,
              min(sent_at) as first_at, min(sent_at) filter (where not press) as first_written
         from t group by account, message_id),
     locked as materialized (
       select m.id, m.broadcast_id, m.reply_id from broadcast_messages m
        where (m.waba_account_id, m.id) in (select account, message_id from agg) and m.id = any($10::bigint[])),
     -- The first answer of each message not answered before (the rows are locked: this reads them as they are).
     newly as (select broadcast_id, count(*)::int as n from locked where reply_id is null group by broadcast_id),
     counted as (update broadcasts b set replied_count = b.replied_count + newly.n from newly
                  where b.id = newly.broadcast_id)
     update broadcast_messages m
        set reply_id = case when m.engaged_at is null or a.first_at < m.engaged_at then a.first_id else m.reply_id end,
            engaged_at = least(m.engaged_at, a.first_at),
            replied_at = least(m.replied_at, a.first_written)
       from agg a join locked l on l.id = a.message_id
      where m.waba_account_id = a.account and m.id = a.message_id`,
    [...replyParams(replies), [...new Set(targets.map((t) => t.broadcastId))], targets.map((t) => t.id)],
  );
}

/**
 * unconfirmed → unknown: no status webhook within the outcome timeout (broadcast-completion.ts). Answers the
 * broadcast of each row changed, for its recount.
 */
export async function markUnknown(
  pool: Pool,
  outcomeTimeoutSeconds: number,
  explanation: string,
): Promise<Array<{ broadcast_id: number }>> {
  const expired = await pool.query<{ broadcast_id: number }>(
    `with x as (select waba_account_id, id from broadcast_messages
                 where state = 'unconfirmed' and unconfirmed_at < now() - make_interval(secs => $1)),
     ${LOCKED}
     update broadcast_messages m set state = 'unknown', unknown_at = now(), error_code = null, error_title = $2
       from locked l where ${onLocked('unconfirmed')}
     returning m.broadcast_id::int`,
    [outcomeTimeoutSeconds, explanation],
  );
  return expired.rows;
}

/**
 * limited, for good (no state change): a due limited message out of retries, or of a cancelled or failed
 * broadcast, gets its next attempt at infinity, so the tick's index scan skips it (limited-retry.ts).
 */
export async function retireLimited(pool: Pool, maxRetries: number): Promise<void> {
  await pool.query(
    `with x as (select m.waba_account_id, m.id from broadcast_messages m
                  join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
                 where m.state = 'limited' and m.next_attempt_at <= now()
                   and (m.limit_retries >= $1 or b.status in ('cancelled', 'failed'))),
     ${LOCKED}
     update broadcast_messages m set next_attempt_at = 'infinity'
       from locked l where ${onLocked('limited')}`,
    [Math.max(0, maxRetries)],
  );
}

/**
 * limited → queued, a retry counted and attempts reset: due limited messages of these sending or paused
 * broadcasts, which the caller has locked (broadcast rows before message rows, decision 022). Answers how many.
 */
export async function requeueLimited(
  client: PoolClient,
  broadcastIds: number[],
  maxRetries: number,
): Promise<number> {
  const requeued = await client.query(
    `with x as (select m.waba_account_id, m.id from broadcast_messages m
                  join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
                 where m.broadcast_id = any($1::bigint[]) and b.status in ('sending', 'paused')
                   and m.state = 'limited' and m.next_attempt_at <= now() and m.limit_retries < $2),
     ${LOCKED}
     update broadcast_messages m
        set state = 'queued', limit_retries = m.limit_retries + 1, attempts = 0, next_attempt_at = now()
       from locked l where ${onLocked('limited')}`,
    [broadcastIds, maxRetries],
  );
  return requeued.rowCount ?? 0;
}

/** queued → cancelled: every queued message of a broadcast being cancelled, whose row the caller has locked. */
export async function cancelQueued(
  client: PoolClient,
  broadcastId: number,
  accountId: number,
): Promise<void> {
  await client.query(
    // The broadcast row is locked by the caller; its message rows are locked in id order (decision 022).
    `with x as (select waba_account_id, id from broadcast_messages
                 where waba_account_id = $2 and broadcast_id = $1 and state = 'queued'),
     ${LOCKED}
     update broadcast_messages m set state = 'cancelled' where ${inLocked('$2', 'queued')}`,
    [broadcastId, accountId],
  );
}
