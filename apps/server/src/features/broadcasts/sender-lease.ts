import type { Pool } from '../../db/pool';
import { takeOverInFlight } from './request-marks';

/**
 * Takes (or renews) a number's lease for `holder`: one sender per number across every worker. Taking it over
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
     returning (select holder from previous) as previous`,
    [phoneId, holder, leaseSeconds],
  );
  if (rows.length === 0) return false;
  // Whoever held the lease died mid-send: what it marked requested may have reached Meta; the rest goes back.
  if (starting || rows[0]!.previous !== holder) await takeOverInFlight(pool, phoneId);
  return true;
}
