import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs } from '../../../db/backoff';
import { isDatabaseUnavailable } from '../../../db/database-unavailable';
import type { Pool } from '../../../db/pool';
import { holderAlive } from './holder-lock';
import { takeOverInFlight } from '../message-rows';

/**
 * Takes (or renews) a number's lease for `holder`: one sender per number across every worker. A lease is taken
 * over once it expired or once its holder is dead: its liveness lock is gone (holder-lock.ts, decision 069), so
 * a killed worker's number moves at the next tick of another instead of after a whole lease. Taking it over
 * from a sender that died mid-send settles that sender's claimed rows (request-marks.ts), and so does a sender
 * `starting` on the number (any `sending` row then was left by a sender that stopped, this process's included).
 * False when another live sender holds it.
 */
export async function acquireLease(
  pool: Pool,
  phoneId: number,
  holder: string,
  leaseSeconds: number,
  starting = false,
): Promise<boolean> {
  const { rows } = await pool.query<{ previous: string | null }>(
    `with previous as (select holder from sender_leases where phone_number_id = $1)
     insert into sender_leases (phone_number_id, holder, expires_at)
     values ($1, $2, now() + make_interval(secs => $3))
     on conflict (phone_number_id) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where sender_leases.expires_at < now() or sender_leases.holder = excluded.holder
          or not ${holderAlive('sender_leases.holder', '$3')}
     returning (select holder from previous) as previous`,
    [phoneId, holder, leaseSeconds],
  );
  if (rows.length === 0) return false;
  // Whoever held the lease died mid-send: what it marked requested may have reached Meta; the rest goes back.
  if (starting || rows[0]!.previous !== holder) await takeOverInFlight(pool, phoneId);
  return true;
}

/** A sender's lease on its number: when it was last renewed, by the clock read before asking (never later). */
export interface HeldLease {
  renewedAt: number;
}

/**
 * How long before its lease could lapse a sender stops trying to write (whileLeased): clocks and latency. A
 * lease can also be taken over before it lapses, once its holder's liveness lock is gone; a live holder loses
 * that lock only with its connection, and when that is a database restart holderAlive counts it alive for a
 * lease's length after the restart, so the deadline below still holds for writes through an outage.
 */
const LEASE_MARGIN_MS = 3_000;
/** The waits between tries to write while the database is unreachable. */
const WRITE_BACKOFF = { first: 100, max: 1_000 };

/** Until when the lease surely holds: its latest renewal plus its length, less a margin. */
export function leaseSurelyHeldUntil(lease: HeldLease, leaseSeconds: number): number {
  return lease.renewedAt + leaseSeconds * 1_000 - LEASE_MARGIN_MS;
}

/**
 * Runs a write of a batch's results, again while the database is unreachable (a restart, a failover), until
 * `deadline` (leaseSurelyHeldUntil). Results dropped here would leave rows that were requested for the
 * take-over, which can only call them unknown (decision 022) though WhatsApp's answers were known. The writes
 * must be idempotent: each statement only moves rows still in the state it expects.
 */
export async function whileLeased(deadline: number, write: () => Promise<void>): Promise<void> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await write();
    } catch (error) {
      const wait = backoffMs(failures, WRITE_BACKOFF);
      if (!isDatabaseUnavailable(error) || Date.now() + wait > deadline) throw error;
      await sleep(wait);
    }
  }
}
