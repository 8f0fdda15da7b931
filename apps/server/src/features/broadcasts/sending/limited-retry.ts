import type { Pool } from '../../../db/pool';
import { withTransaction } from '../../../db/transaction';
import { lockBroadcasts, recountLockedBroadcasts } from '../broadcast-counts';
import { requeueLimited, retireLimited } from '../message-rows';
/** MARKETING_LIMIT_RETRIES's default (config.ts): peers retry a limited message once or twice at most. */
export const DEFAULT_MARKETING_LIMIT_RETRIES = 1;

/**
 * One step of the engine's tick (decision 028). A limited message does not hold its broadcast's completion;
 * once its 24 hours are over it goes back to the queue (at most `maxRetries` times per message) and a
 * completed broadcast is sending again until it has sent them. A message out of retries, or of a cancelled
 * broadcast, stays limited for good: its next attempt is set to infinity so the tick's index scan skips it.
 * Locks broadcast rows before message rows, each in id order (decision 022). Answers how many were requeued.
 */
export async function requeueDueLimited(pool: Pool, maxRetries: number): Promise<number> {
  await retireLimited(pool, maxRetries);
  if (maxRetries <= 0) return 0;
  const { rows } = await pool.query<{ broadcast_id: number }>(
    `select distinct broadcast_id::int from broadcast_messages
      where state = 'limited' and next_attempt_at <= now() and limit_retries < $1`,
    [maxRetries],
  );
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.broadcast_id);
  return withTransaction(pool, async (client) => {
    await lockBroadcasts(client, ids);
    await client.query(
      `update broadcasts set status = 'sending', completed_at = null
        where id = any($1::bigint[]) and status = 'completed'`,
      [ids],
    );
    // A paused broadcast's rows wait in the queue for its resume; a cancelled one's stay limited (above).
    const requeued = await requeueLimited(client, ids, maxRetries);
    await recountLockedBroadcasts(client, ids);
    return requeued;
  });
}
