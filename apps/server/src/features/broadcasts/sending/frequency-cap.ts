import { SKIPPED_REASON } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import type { Claimed } from '../message-rows';
import type { SendResult } from './message-settle';

/**
 * Reserves the account's frequency cap for a batch about to be sent (decision 098; migration 047's
 * reserve_frequency, one atomic statement under the account's reservation lock, so two workers or two numbers
 * of the account never let the same person through twice at the cap's edge). Answers the messages that may go
 * and the skipped ones' results: never requested, not a failure.
 */
export async function reserveFrequencyCap<T extends { message: Claimed }>(
  pool: Pool,
  accountId: number,
  ready: T[],
): Promise<{ allowed: T[]; skipped: SendResult[] }> {
  if (ready.length === 0) return { allowed: ready, skipped: [] };
  const { rows } = await pool.query<{ skipped: string[] }>(
    'select reserve_frequency($1, $2::bigint[], $3::bigint[], $4::text[]) as skipped',
    [
      accountId,
      ready.map(({ message }) => message.id),
      ready.map(({ message }) => message.broadcast_id),
      ready.map(({ message }) => message.whatsapp_number),
    ],
  );
  const skippedIds = new Set(rows[0]!.skipped.map(Number));
  if (skippedIds.size === 0) return { allowed: ready, skipped: [] };
  return {
    allowed: ready.filter(({ message }) => !skippedIds.has(message.id)),
    skipped: [...skippedIds].map((id) => ({ id, state: 'skipped', code: null, title: SKIPPED_REASON.title })),
  };
}
