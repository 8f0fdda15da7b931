import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';
import { deleteForRetention, freshenCounts } from '../broadcasts/index';

/** pg-boss queue of the daily retention run (its queue is made at migrate time: jobs/job-schema.ts). */
export const RETENTION_QUEUE = 'data-retention';
/** Daily at 03:17 UTC: a quiet hour, off the top of the hour when other schedules fire. */
export const RETENTION_CRON = '17 3 * * *';

/** Rows deleted per statement: each transaction stays short, so senders and webhooks never wait long on it. */
export const RETENTION_BATCH_ROWS = 5_000;

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
 * One batch of message rows of the account's broadcasts that ended before the cutoff, its own transaction:
 * deleteForRetention (the broadcasts feature's one writer of message rows) says what it removes and keeps.
 */
async function removeMessages(pool: Pool, account: { id: number; cutoff: Date }, limit: number) {
  return withTransaction(pool, (client) => deleteForRetention(client, account.id, account.cutoff, limit));
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
