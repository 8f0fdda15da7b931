import type { Pool } from '../../../db/pool';
import { holderAlive } from './holder-lock';

/**
 * A fair share of numbers between workers (decision 055). Each worker's engine beats once a tick; the live
 * workers are those that beat within a lease's length and still hold their liveness lock (holder-lock.ts: a
 * killed worker stops counting at once, so its numbers are not left outside every share). A worker takes a free number only while it holds fewer
 * than its share of the numbers with work (rounded up), so which worker ticks first no longer decides who
 * sends every number: with 3 workers and 2 numbers, the worker sending one leaves the other to another worker.
 * A lone worker's share is every number. A worker already over its share keeps what it holds (no handing
 * over mid-broadcast): the share applies to numbers that are free.
 *
 * Every tick beats, with work or without: a worker that beat only when it saw a free number was unknown to the
 * others until then, so the first worker to send one number could count itself alone and take the next too.
 * A worker killed without stopping leaves its row: gone after an hour, counted only while it beats.
 */
export async function beat(pool: Pool, holder: string): Promise<void> {
  await pool.query(
    `with gone as (delete from broadcast_workers where seen_at < now() - interval '1 hour')
     insert into broadcast_workers (holder, seen_at) values ($1, now())
     on conflict (holder) do update set seen_at = excluded.seen_at`,
    [holder],
  );
}

/** Live workers other than `holder` (which counts itself): beat within `liveSeconds` and holding their lock. */
export async function liveWorkers(pool: Pool, holder: string, liveSeconds: number): Promise<number> {
  const { rows } = await pool.query<{ live: number }>(
    `select count(*)::int + 1 as live from broadcast_workers
      where holder <> $1 and seen_at > now() - make_interval(secs => $2) and ${holderAlive('holder', '$2')}`,
    [holder, liveSeconds],
  );
  return rows[0]!.live;
}

/** Numbers one worker may hold when `numbers` have work among `workers` live workers. */
export function shareOfNumbers(numbers: number, workers: number): number {
  return Math.ceil(numbers / Math.max(1, workers));
}

/** A stopping worker no longer counts towards the others' shares. */
export async function leaveWorkers(pool: Pool, holder: string): Promise<void> {
  await pool.query('delete from broadcast_workers where holder = $1', [holder]);
}
