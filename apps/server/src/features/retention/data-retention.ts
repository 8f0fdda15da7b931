import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';
import { freshenCounts } from '../broadcasts/index';

/** pg-boss queue of the daily retention run (its queue is made at migrate time: jobs/job-schema.ts). */
export const RETENTION_QUEUE = 'data-retention';
/** Daily at 03:17 UTC: a quiet hour, off the top of the hour when other schedules fire. */
export const RETENTION_CRON = '17 3 * * *';

/** Rows deleted per statement: each transaction stays short, so senders and webhooks never wait long on it. */
export const RETENTION_BATCH_ROWS = 5_000;

/** A broadcast has ended when nothing of it will be sent again; only then may its rows go. */
const ENDED = `b.status in ('completed', 'cancelled', 'failed')`;

export interface RetentionRun {
  /** Per-recipient message rows removed. */
  messages: number;
  /** Customers' replies removed. */
  replies: number;
}

/**
 * Removes what is older than each account's retention (Customer Settings, 1, 3 or 5 years; 5 until saved;
 * decision 041): the message rows of broadcasts that ended before it, and the replies customers sent before
 * it. A broadcast's totals stay: its counters are on the broadcast row (recounts only touch broadcasts
 * with rows), the report adds broadcast_removed_outcomes, and the Dashboard's hourly figures are kept.
 * Deletes in batches of `batchRows`, each its own transaction.
 */
export async function removeExpiredData(pool: Pool, batchRows = RETENTION_BATCH_ROWS): Promise<RetentionRun> {
  const { rows: accounts } = await pool.query<{ id: number; cutoff: Date }>(
    `select a.id::int, now() - make_interval(years => coalesce(s.retention_years, 5)::int) as cutoff
       from waba_accounts a left join account_settings s on s.waba_account_id = a.id
      order by a.id`,
  );
  const run: RetentionRun = { messages: 0, replies: 0 };
  for (const account of accounts) {
    // Counters left stale (decision 059) are made exact while the rows they count are all still there.
    await freshenCounts(pool, account.id);
    run.messages += await repeatUntilShort(batchRows, () => removeMessages(pool, account, batchRows));
    run.replies += await repeatUntilShort(batchRows, () => removeReplies(pool, account, batchRows));
  }
  return run;
}

async function repeatUntilShort(batchRows: number, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await batch();
    total += removed;
    if (removed < batchRows) return total;
  }
}

/**
 * One batch of message rows of the account's broadcasts that ended before the cutoff. Rows another writer
 * holds are skipped (the next run takes them). What the batch removed is added to the broadcast's removed
 * outcomes in the same statement, and the Dashboard keeps the figures (migration 020's trigger switch).
 */
async function removeMessages(pool: Pool, account: { id: number; cutoff: Date }, limit: number) {
  return withTransaction(pool, async (client) => {
    // Read by the trigger function broadcast_messages_dashboard_delete() (migration 020), which then leaves
    // dashboard_hours alone: the hourly figures must outlive the rows retention removes (decision 041).
    await client.query(`set local herald.keep_dashboard_figures = 'on'`);
    const { rows } = await client.query<{ removed: number }>(
      `with doomed as (
         select m.id from broadcasts b
           join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
          where b.waba_account_id = $1 and ${ENDED}
            and coalesce(b.completed_at, b.started_at, b.created_at) < $2
          limit $3 for update of m skip locked),
       removed as (
         delete from broadcast_messages m using doomed d where m.waba_account_id = $1 and m.id = d.id
         returning m.broadcast_id, m.state, m.reply_id),
       kept as (
         insert into broadcast_removed_outcomes as o (waba_account_id, broadcast_id, state, recipients, replied)
         select $1, broadcast_id, state, count(*), count(reply_id) from removed group by broadcast_id, state
          order by broadcast_id, state
         on conflict (waba_account_id, broadcast_id, state) do update
           set recipients = o.recipients + excluded.recipients, replied = o.replied + excluded.replied)
       select count(*)::int as removed from removed`,
      [account.id, account.cutoff, limit],
    );
    return rows[0]!.removed;
  });
}

/** One batch of the account's customers' replies sent before the cutoff. */
async function removeReplies(pool: Pool, account: { id: number; cutoff: Date }, limit: number) {
  const { rowCount } = await pool.query(
    `delete from inbound_messages where waba_account_id = $1 and id = any(array(
       select id from inbound_messages where waba_account_id = $1 and sent_at < $2
        limit $3 for update skip locked))`,
    [account.id, account.cutoff, limit],
  );
  return rowCount ?? 0;
}
