import type { Pool } from '../../db/pool';
import { freshenCounts } from './broadcast-counts';
import { settleMessages } from './sending/message-settle';

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

/** The account's row id and its first number's id, for tests that write broadcasts straight into the tables. */
export async function accountAndNumber(pool: Pool, wabaId: string) {
  const { rows } = await pool.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w
       join phone_numbers p on p.waba_account_id = w.id where w.waba_id = $1 limit 1`,
    [wabaId],
  );
  return { accountId: rows[0]!.account, phoneId: rows[0]!.phone };
}

/**
 * A sending broadcast named `name` of `count` messages Meta accepted (through the sender's settle), each with
 * its wamid (`wamid.<name>.<row id>`); numbers `numberPrefix` + 8 digits from `serial`, unique per serial.
 */
export async function acceptedBroadcast(
  pool: Pool,
  where: { accountId: number; phoneId: number },
  options: { count: number; name: string; serial: number; numberPrefix: string },
) {
  const { rows } = await pool.query<{ id: number; whatsapp_number: string; broadcast_id: number }>(
    `with b as (
       insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, total_recipients, started_at)
       values ($1, $2, 'hello', 'en_US', $4, '{"type":"all","percentage":100}', now(), 'sending', $3, now())
       returning id)
     insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts, requested_at)
     select $1, b.id, $6 || lpad(($5 * 1000 + n)::text, 8, '0'), 'sending', 1, now()
       from b, generate_series(1, $3) n
     returning id::int, whatsapp_number, broadcast_id::int`,
    [where.accountId, where.phoneId, options.count, options.name, options.serial, options.numberPrefix],
  );
  const messages = rows
    .sort((a, b) => a.id - b.id)
    .map((r) => ({ id: r.id, number: r.whatsapp_number, wamid: `wamid.${options.name}.${r.id}` }));
  await settleMessages(
    pool,
    where.accountId,
    messages.map((m) => ({ id: m.id, state: 'accepted' as const, wamid: m.wamid, at: new Date() })),
  );
  return { broadcastId: rows[0]!.broadcast_id, messages };
}
