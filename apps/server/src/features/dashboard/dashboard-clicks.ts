import { clickRate, percentChange } from '@herald/contracts';
import type { Pool } from '../../db/pool';

/**
 * Tracked-link clicks on the Dashboard, by the hour Meta accepted the clicked message (as every Dashboard figure,
 * so a message and its click land on one day; decision 032). Read from the message rows' partial index on
 * clicks, which holds only clicked messages. The rate's denominator is the delivered (or read) messages of
 * broadcasts that had a tracked link, so broadcasts without one do not dilute it.
 */
export async function dashboardClicks(
  pool: Pool,
  accountId: number,
  bounds: { prevStart: Date; start: Date; end: Date; tz: string },
) {
  const [days, totals, delivered] = await Promise.all([
    pool.query<{ date: string; clicked: number }>(
      `select to_char((accepted_at at time zone $4)::date, 'YYYY-MM-DD') as date, count(*)::int as clicked
         from broadcast_messages
        where waba_account_id = $1 and clicked_at is not null and accepted_at >= $2 and accepted_at < $3
        group by 1`,
      [accountId, bounds.start, bounds.end, bounds.tz],
    ),
    pool.query<{ current: number; previous: number }>(
      `select count(*) filter (where accepted_at >= $3)::int as current,
              count(*) filter (where accepted_at < $3)::int as previous
         from broadcast_messages
        where waba_account_id = $1 and clicked_at is not null and accepted_at >= $2 and accepted_at < $4`,
      [accountId, bounds.prevStart, bounds.start, bounds.end],
    ),
    pool.query<{ delivered: number }>(
      `select count(*)::int as delivered
         from broadcast_messages m
        where m.waba_account_id = $1 and m.delivered_at is not null and m.accepted_at >= $2 and m.accepted_at < $3
          and m.broadcast_id in (select b.id from broadcasts b
                                  where b.waba_account_id = $1 and b.link_destination is not null
                                    and b.scheduled_at < $3)`,
      [accountId, bounds.start, bounds.end],
    ),
  ]);
  const clicked = totals.rows[0]?.current ?? 0;
  const previous = totals.rows[0]?.previous ?? 0;
  const hasTracked = (delivered.rows[0]?.delivered ?? 0) > 0;
  return {
    byDay: new Map(days.rows.map((r) => [r.date, r.clicked])),
    summary: {
      clicked,
      previous,
      change: percentChange(clicked, previous),
      rate: hasTracked ? clickRate(clicked, delivered.rows[0]!.delivered) : null,
    },
  };
}
