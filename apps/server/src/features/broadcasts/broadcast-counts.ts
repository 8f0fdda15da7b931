import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';

// Per broadcast, a lateral count over its rows by the key that starts with its account (a join of the two
// tables here took twice as long: a hash join per batch settled, measured on 100,000 rows).
const RECOUNT_SQL = `
  update broadcasts b
     set accepted_count = s.accepted, delivered_count = s.delivered, read_count = s.read, failed_count = s.failed,
         unknown_count = s.unknown, limited_count = s.limited, not_on_whatsapp_count = s.not_on_whatsapp,
         expired_count = s.expired, skipped_count = s.skipped, handed_count = s.handed, sent_count = s.sent
    from broadcasts o
   cross join lateral (
          select m.broadcast_id,
                 count(*) filter (where state in ('accepted', 'sent', 'delivered', 'read'))::int as accepted,
                 count(*) filter (where state in ('delivered', 'read'))::int as delivered,
                 count(*) filter (where state = 'read')::int as read,
                 count(*) filter (where state = 'failed')::int as failed,
                 count(*) filter (where state = 'unknown')::int as unknown,
                 -- Not Herald's failures (decision 028): counted apart from failed.
                 count(*) filter (where state = 'limited')::int as limited,
                 count(*) filter (where state = 'not_on_whatsapp')::int as not_on_whatsapp,
                 count(*) filter (where state = 'expired')::int as expired,
                 count(*) filter (where state = 'skipped')::int as skipped,
                 -- With WhatsApp, no 'sent' status yet; and what WhatsApp reported sent (decision 036).
                 count(*) filter (where state in ('accepted', 'held', 'unconfirmed'))::int as handed,
                 count(*) filter (where state in ('sent', 'delivered', 'read'))::int as sent
            from broadcast_messages m
           where m.waba_account_id = o.waba_account_id and m.broadcast_id = o.id
           group by m.broadcast_id) s
   where o.id = any($1::bigint[]) and b.id = o.id`;

/**
 * Locks broadcast rows in id order: the first step of the one lock order every writer of broadcast and message
 * rows follows (broadcast rows by id, then message rows by id; decision 022), so no two writers can deadlock.
 * FOR NO KEY UPDATE, as every broadcast row lock: no writer changes the keys message rows point at, and a
 * stronger lock would wait for an audience slice's foreign-key checks (and deadlock with it).
 */
export async function lockBroadcasts(client: PoolClient, broadcastIds: number[]): Promise<void> {
  const ids = [...new Set(broadcastIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await client.query('select id from broadcasts where id = any($1::bigint[]) order by id for no key update', [
    ids,
  ]);
}

/** Recounts broadcasts whose rows this transaction has locked (lockBroadcasts), from their message rows. */
export async function recountLockedBroadcasts(client: PoolClient, broadcastIds: number[]): Promise<void> {
  if (broadcastIds.length === 0) return;
  const ids = [...new Set(broadcastIds)];
  await client.query(RECOUNT_SQL, [ids]);
  // Apart from the recount: a broadcast whose rows retention removed has none to count, and keeps its counters.
  await client.query(
    'update broadcasts set counts_stale = false where id = any($1::bigint[]) and counts_stale',
    [ids],
  );
}

/**
 * Marks the broadcasts' counters stale after their message rows changed (decision 059): the next reader
 * recounts them once (freshenCounts), instead of every batch recounting all the broadcast's rows. A broadcast
 * already marked is skipped without waiting for its row lock, so concurrent senders and webhook batches rarely
 * queue on it. Works inside a transaction that has locked the rows (lockBroadcasts) or on its own.
 */
export async function markCountsStale(db: Pool | PoolClient, broadcastIds: number[]): Promise<void> {
  if (broadcastIds.length === 0) return;
  await db.query(
    'update broadcasts set counts_stale = true where id = any($1::bigint[]) and not counts_stale',
    [[...new Set(broadcastIds)]],
  );
}

/**
 * Recounts, of the account's broadcasts (or only `broadcastIds` of them), those whose counters are stale
 * (markCountsStale), so what a reader reads next is exact: every reader of the counters calls this first.
 * Costs one indexed read when none is stale.
 */
export async function freshenCounts(pool: Pool, accountId: number, broadcastIds?: number[]): Promise<void> {
  const { rows } = await pool.query<{ id: number }>(
    `select id::int from broadcasts
      where waba_account_id = $1 and counts_stale and ($2::bigint[] is null or id = any($2::bigint[]))`,
    [accountId, broadcastIds ?? null],
  );
  await refreshBroadcastCounts(
    pool,
    rows.map((r) => r.id),
  );
}

/**
 * Recounts the broadcasts' counters from their message rows: exact, whatever order events came in. The
 * broadcast rows are locked first and counted in a later statement, so the count sees every change committed
 * before it (counting first and then waiting for the lock could write an older, smaller count over a newer one).
 * Pass a client inside a transaction, or the pool to run in a transaction of its own.
 */
export async function refreshBroadcastCounts(db: Pool | PoolClient, broadcastIds: number[]): Promise<void> {
  if (broadcastIds.length === 0) return;
  const recount = async (client: PoolClient) => {
    await lockBroadcasts(client, broadcastIds);
    await recountLockedBroadcasts(client, broadcastIds);
  };
  if ('release' in db) await recount(db);
  else await withTransaction(db, recount);
}
