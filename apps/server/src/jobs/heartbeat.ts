import type { Pool } from '../db/pool';

export const HEARTBEAT_QUEUE = 'heartbeat';
/** pg-boss cron has minute granularity; one beat a minute is enough to tell a live worker from a dead one. */
export const HEARTBEAT_CRON = '* * * * *';

export async function recordHeartbeat(pool: Pool, workerId: string): Promise<void> {
  await pool.query('insert into worker_heartbeats (worker_id) values ($1)', [workerId]);
  // Keep the table small: a day of beats is plenty of history for a health check.
  await pool.query("delete from worker_heartbeats where beat_at < now() - interval '1 day'");
}
