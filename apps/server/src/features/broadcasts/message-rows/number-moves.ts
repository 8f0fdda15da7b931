import type { PoolClient } from 'pg';
import { lockBroadcasts } from '../broadcast-counts';

/** Message rows not yet requested from Meta: they go wherever the person is now. */
const UNSENT = `('queued', 'held', 'limited')`;

/** Where a person was reached, and where they are now (the same contact, or the one they were folded into). */
export interface NumberMove {
  accountId: number;
  fromContactId: number;
  fromNumber: string;
  toContactId: number;
  toNumber: string;
}

/**
 * A person changed number (WhatsApp's user_changed_number): the broadcast messages not yet sent to the old
 * number go to the new one, and so does the part of a frozen audience not yet written as message rows. A
 * broadcast that already has a row for the new number keeps it and leaves the old row where it is (its contact
 * is then opted out, so the sender skips it): nobody gets the same broadcast twice. Messages already sent stay
 * as they were sent. Broadcasts are locked before their rows, in the order every writer uses (decision 014).
 */
export async function moveUnsentMessages(client: PoolClient, move: NumberMove): Promise<void> {
  const params = [move.accountId, move.fromContactId, move.fromNumber, move.toContactId, move.toNumber];
  const { rows } = await client.query<{ id: number }>(
    `select broadcast_id::int as id from broadcast_messages
      where waba_account_id = $1 and contact_id = $2 and whatsapp_number = $3 and state in ${UNSENT}
     union
     select broadcast_id::int from broadcast_audiences where waba_account_id = $1 and $3 = any(numbers)`,
    params.slice(0, 3),
  );
  const broadcastIds = rows.map((r) => r.id);
  if (broadcastIds.length === 0) return;
  await lockBroadcasts(client, broadcastIds);
  await client.query(
    `update broadcast_messages m set whatsapp_number = $5, contact_id = $4
      where m.waba_account_id = $1 and m.broadcast_id = any($6::bigint[]) and m.contact_id = $2
        and m.whatsapp_number = $3 and m.state in ${UNSENT}
        and not exists (select 1 from broadcast_messages o
                         where o.waba_account_id = $1 and o.broadcast_id = m.broadcast_id and o.whatsapp_number = $5)`,
    [...params, broadcastIds],
  );
  // The two arrays stay aligned: the old number and the old contact sit at the same position.
  await client.query(
    `update broadcast_audiences
        set numbers = array_replace(numbers, $3, $5), contact_ids = array_replace(contact_ids, $2, $4)
      where waba_account_id = $1 and broadcast_id = any($6::bigint[]) and $3 = any(numbers)`,
    [...params, broadcastIds],
  );
}
