import type { Pool } from '../../db/pool';
import { freshenCounts } from './broadcast-counts';

/**
 * The broadcast's row as a reader of its counters sees it: stale counters recounted first, as the history
 * and the completed e-mail do (decision 059). `columns` is SQL, written by the test.
 */
export async function freshBroadcastRow(pool: Pool, id: number, columns = '*') {
  const owner = await pool.query<{ account: number }>(
    'select waba_account_id::int as account from broadcasts where id = $1',
    [id],
  );
  if (owner.rows[0]) await freshenCounts(pool, owner.rows[0].account, [id]);
  return (await pool.query(`select ${columns} from broadcasts where id = $1`, [id])).rows[0];
}
