import type { Pool } from '../../db/pool';

/**
 * Messages WhatsApp dropped at the end of their time-to-live, in the range and the previous period, by the hour
 * Meta accepted them (as every Dashboard figure). Read from the message rows' partial index on expired rows.
 */
export async function dashboardExpired(
  pool: Pool,
  accountId: number,
  bounds: { prevStart: Date; start: Date; end: Date },
): Promise<{ count: number; previous: number }> {
  const { rows } = await pool.query<{ count: number; previous: number }>(
    `select count(*) filter (where accepted_at >= $3)::int as count,
            count(*) filter (where accepted_at < $3)::int as previous
       from broadcast_messages
      where waba_account_id = $1 and state = 'expired' and accepted_at >= $2 and accepted_at < $4`,
    [accountId, bounds.prevStart, bounds.start, bounds.end],
  );
  return { count: rows[0]?.count ?? 0, previous: rows[0]?.previous ?? 0 };
}
