import { maxPriceDollars, spendCapReason } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { withTransaction } from '../../../db/transaction';
import { isBsuidAddress } from '../../contacts';
import type { RateCard } from '../../pricing';
import { lockBroadcasts } from '../broadcast-counts';
import { markSpendCounted } from '../message-rows';
import type { SendResult } from '../sending/message-settle';
import type { Claimed } from '../sending/sender-batch';
import { messageCostMicros, MICROS, shippedRateCard, toMicros } from './spend-cap-rates';

interface CappedBroadcast {
  id: number;
  cap: string;
  committed: string;
  category: string | null;
  /** The template's max price (Meta's bid_amount), the most one delivery can cost; null: the rate card. */
  max_price: number | null;
}

/**
 * The spend cap at claim time (decision 052): of a batch's messages ready to be requested, those whose
 * broadcast has a cap go only while the broadcast's committed cost (every message requested so far, each counted
 * once at its market's rate for the template's category today, as if billable, or at the template's max price,
 * the most Meta charges for one delivery of it) stays within the cap. The first
 * that would pass it pauses its broadcast with the reason the history shows; it and that broadcast's later ones
 * are added to `unsent` as released (back to the queue, unrequested). Answers the messages that may go.
 *
 * A batch with no capped broadcast costs one primary-key read. The broadcast is paused without waking the send
 * gate: its messages already prepared were counted within the cap, and only this sender sends its number.
 */
export async function cutAtSpendCap<T extends { message: Claimed }>(
  pool: Pool,
  accountId: number,
  card: RateCard | undefined,
  ready: T[],
  unsent: SendResult[],
): Promise<T[]> {
  if (ready.length === 0) return ready;
  const broadcastIds = [...new Set(ready.map(({ message }) => message.broadcast_id))];
  const found = await pool.query<{ id: number }>(
    'select id::int from broadcasts where id = any($1::bigint[]) and spend_cap is not null',
    [broadcastIds],
  );
  if (found.rows.length === 0) return ready;
  const cappedIds = new Set(found.rows.map((row) => row.id));
  const candidates = ready.filter(({ message }) => cappedIds.has(message.broadcast_id));
  const day = new Date().toISOString().slice(0, 10);
  const rates = card ?? shippedRateCard();
  // A batch's numbers share a few markets: each market prefix (decision 049) and category is priced once.
  const costs = new Map<string, number>();
  const costOf = (address: string, category: string | null, maxPrice: number | null) => {
    if (maxPrice !== null) return toMicros(maxPriceDollars(maxPrice));
    const key = `${category}|${isBsuidAddress(address) ? 'bsuid' : address.slice(0, 5)}`;
    let cost = costs.get(key);
    if (cost === undefined) {
      cost = messageCostMicros(rates, address, category, day);
      costs.set(key, cost);
    }
    return cost;
  };

  const over = await withTransaction(pool, async (client) => {
    // Broadcast rows, then message rows, each in id order: the one lock order (decision 022).
    await lockBroadcasts(client, [...cappedIds]);
    const { rows: caps } = await client.query<CappedBroadcast>(
      `select b.id::int, b.spend_cap::text as cap, b.spend_committed::text as committed, t.category,
              t.max_price_bid_amount as max_price
         from broadcasts b left join templates t on t.id = b.template_id
        where b.id = any($1::bigint[]) and b.spend_cap is not null`,
      [[...cappedIds]],
    );
    // Locked in id order (the sort is below the row locks), read by the primary key.
    const { rows: locked } = await client.query<{ id: number; spend_counted: boolean }>(
      `select m.id::int, m.spend_counted from broadcast_messages m
        where m.waba_account_id = $2 and m.id = any($1::bigint[]) order by m.id for update`,
      [candidates.map(({ message }) => message.id), accountId],
    );
    const alreadyCounted = new Set(locked.filter((row) => row.spend_counted).map((row) => row.id));
    const newlyCounted: number[] = [];
    const over = new Set<number>();
    const totals: Array<{ id: number; committed: number }> = [];
    const pauses: Array<{ id: number; reason: string; needed: number }> = [];
    for (const broadcast of caps) {
      const cap = toMicros(broadcast.cap);
      let committed = toMicros(broadcast.committed);
      const before = committed;
      let stopped = false;
      const mine = candidates
        .map(({ message }) => message)
        .filter((message) => message.broadcast_id === broadcast.id)
        .sort((a, b) => a.id - b.id);
      for (const message of mine) {
        if (stopped) over.add(message.id);
        else if (alreadyCounted.has(message.id)) continue;
        else {
          const cost = costOf(message.whatsapp_number, broadcast.category, broadcast.max_price);
          if (committed + cost <= cap) {
            committed += cost;
            newlyCounted.push(message.id);
          } else {
            stopped = true;
            over.add(message.id);
            pauses.push({
              id: broadcast.id,
              reason: spendCapReason(committed / MICROS, cap / MICROS),
              needed: (committed + cost) / MICROS,
            });
          }
        }
      }
      if (committed !== before) totals.push({ id: broadcast.id, committed: committed / MICROS });
    }
    if (newlyCounted.length > 0) {
      await markSpendCounted(client, accountId, newlyCounted);
    }
    if (totals.length > 0) {
      await client.query(
        `update broadcasts b set spend_committed = x.committed
           from unnest($1::bigint[], $2::numeric[]) as x(id, committed) where b.id = x.id`,
        [totals.map((t) => t.id), totals.map((t) => t.committed)],
      );
    }
    if (pauses.length > 0) {
      // Only a sending broadcast: one the user paused meanwhile keeps its own pause (its Resume comes here again).
      await client.query(
        `update broadcasts b set status = 'paused', status_reason = x.reason, spend_needed = x.needed
           from unnest($1::bigint[], $2::text[], $3::numeric[]) as x(id, reason, needed)
          where b.id = x.id and b.status = 'sending'`,
        [pauses.map((p) => p.id), pauses.map((p) => p.reason), pauses.map((p) => p.needed)],
      );
    }
    return over;
  });
  for (const id of over) unsent.push({ id, state: 'released' });
  return ready.filter(({ message }) => !over.has(message.id));
}
