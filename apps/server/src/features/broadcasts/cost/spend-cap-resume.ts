import { isSpendCapPause, spendCapTooLowMessage, type BroadcastActionBody } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { HttpError } from '../../../http-error';

/**
 * A Resume's spend cap (decision 052), inside act()'s transaction with the broadcast row locked. A new cap (or
 * null, no cap) in the body is stored; a broadcast the cap paused resumes only when the cap lets at least its
 * next message go (spend_needed, set by the pause), else 409 naming spend_cap: resuming it as it is would only
 * pause it again at once.
 */
export async function applyResumeSpendCap(
  client: PoolClient,
  broadcastId: number,
  body: BroadcastActionBody | undefined,
): Promise<void> {
  const { rows } = await client.query<{ needed: string | null; reason: string | null }>(
    'select spend_needed::text as needed, status_reason as reason from broadcasts where id = $1',
    [broadcastId],
  );
  const row = rows[0];
  if (!row) return;
  const needed = row.needed === null ? null : Number(row.needed);
  const cap = body?.spend_cap;
  if (cap === undefined) {
    if (needed !== null && isSpendCapPause(row.reason)) {
      throw HttpError.field(409, 'spend_cap', spendCapTooLowMessage(needed));
    }
    return;
  }
  if (cap !== null && needed !== null && cap < needed) {
    throw HttpError.field(409, 'spend_cap', spendCapTooLowMessage(needed));
  }
  await client.query('update broadcasts set spend_cap = $2, spend_needed = null where id = $1', [
    broadcastId,
    cap,
  ]);
}
