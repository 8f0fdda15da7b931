import type { Pool } from '../../db/pool';

/** Meta's click_id is opaque; anything longer than this is not one of Meta's and is not kept. */
const MAX_CLICK_ID = 200;

export function cleanClickId(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CLICK_ID ? value : null;
}

/** Where a tracked link leads, for a request that opens it without a person (a preview): nothing is recorded. */
export async function linkDestination(
  pool: Pool,
  target: { accountId: number; messageId: number },
): Promise<string | null> {
  const { rows } = await pool.query<{ destination: string | null }>(
    `select b.link_destination as destination
       from broadcast_messages m
       join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
      where m.waba_account_id = $1 and m.id = $2 and m.requested_at is not null`,
    [target.accountId, target.messageId],
  );
  return rows[0]?.destination ?? null;
}
