import type { Pool } from '../../db/pool';
import type { PoolClient } from 'pg';

/** Recounts the broadcasts' counters from their message rows: exact, whatever order events came in. */
export async function refreshBroadcastCounts(db: Pool | PoolClient, broadcastIds: number[]): Promise<void> {
  if (broadcastIds.length === 0) return;
  await db.query(
    `update broadcasts b
        set accepted_count = s.accepted, delivered_count = s.delivered, read_count = s.read, failed_count = s.failed
       from (select broadcast_id,
                    count(*) filter (where state in ('accepted', 'sent', 'delivered', 'read'))::int as accepted,
                    count(*) filter (where state in ('delivered', 'read'))::int as delivered,
                    count(*) filter (where state = 'read')::int as read,
                    count(*) filter (where state = 'failed')::int as failed
               from broadcast_messages where broadcast_id = any($1::bigint[]) group by broadcast_id) s
      where b.id = s.broadcast_id`,
    [broadcastIds],
  );
}
