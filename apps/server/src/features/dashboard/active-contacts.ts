import type { Pool } from '../../db/pool';

/**
 * Active Contacts in [start, end): numbers that received a broadcast message or wrote in, each once (by UTC hour,
 * as every Dashboard figure). A distinct count is not a sum of hours, but each number active in the range has
 * exactly one active hour in it whose previous active hour lies before the range: dashboard_active_pairs counts
 * numbers by (hour, previous hour), so any range, past or not, is one index range of at most its hours' rows
 * (decision 102).
 */
export async function activeContacts(pool: Pool, accountId: number, start: Date, end: Date): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select coalesce(sum(numbers), 0)::int as n from dashboard_active_pairs
      where waba_account_id = $1 and hour >= $2 and hour < $3 and previous_hour < $2`,
    [accountId, start, end],
  );
  return rows[0]!.n;
}
