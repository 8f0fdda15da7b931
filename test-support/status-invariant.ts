import { findAllRowsBehind } from '../apps/server/src/features/broadcasts/statuses/status-repair';
import type { Pool } from '../apps/server/src/db/pool';

/**
 * Fails when a message row stands below a status Herald processed for it, or when the repair sweep had to move
 * one forward (decision 068): run over the whole database when a test app closes, so every integration test also proves that no status it sent was lost.
 * Statuses that must not apply (an earlier attempt's wamid, a failure after delivery, another account's row)
 * are judged by the webhook batch's own rule and never count.
 */
export async function assertNoStatusBehind(pool: Pool): Promise<void> {
  // The repair sweep (in any worker process of the test) would have hidden a lost status from the check below;
  // its audit shows it: herald_status_repairs_total stays 0 exactly when this table stays empty.
  const repairs = await pool.query<{ line: string }>(
    `select format('message %s (broadcast %s, wamid %s) was repaired from %s to %s', broadcast_message_id,
                   broadcast_id, coalesce(wamid, 'none'), state_before, status) as line
       from status_repairs order by id`,
  );
  if (repairs.rows.length > 0) {
    throw new Error(
      `${repairs.rows.length} statuses landed only through the repair sweep:\n` +
        repairs.rows.map((row) => row.line).join('\n'),
    );
  }
  const behind = await findAllRowsBehind(pool);
  if (behind.length === 0) return;
  const lines = behind.map(
    (row) =>
      `message ${row.id} (account ${row.accountId}, broadcast ${row.broadcastId}, wamid ${row.wamid ?? 'none'}) ` +
      `is '${row.state}' below '${row.status.status}' of webhook event ${row.eventId}`,
  );
  throw new Error(`${behind.length} message rows stand below a processed status:\n${lines.join('\n')}`);
}
