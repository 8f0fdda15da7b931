import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

/** Where a message goes: Cloud API's `/messages`, or the Marketing Messages API's `/marketing_messages`. */
export type SendEndpoint = 'messages' | 'marketing_messages';

export interface StoredMmApi {
  metaStatus: string | null;
  businessId: string | null;
  statusSince: Date | null;
  requestedAt: Date | null;
  viaMmApi: boolean;
}

/** The account's Marketing Messages API state as Herald last stored it, and its routing setting. */
export async function readMmApi(db: Queryable, accountId: number): Promise<StoredMmApi> {
  const { rows } = await db.query<StoredMmApi>(
    `select w.mm_api_status as "metaStatus", w.business_id as "businessId", w.mm_api_status_since as "statusSince",
            w.mm_api_requested_at as "requestedAt", coalesce(s.marketing_via_mm_api, true) as "viaMmApi"
       from waba_accounts w left join account_settings s on s.waba_account_id = w.id where w.id = $1`,
    [accountId],
  );
  return rows[0]!;
}

/** Stores what Meta answered (its status, and the owning portfolio when Herald did not know it). */
export async function saveMetaStatus(
  db: Queryable,
  accountId: number,
  metaStatus: string | null,
  businessId: string | null,
): Promise<void> {
  await db.query(
    `update waba_accounts
        set mm_api_status_since = case when mm_api_status is distinct from $2 then now() else mm_api_status_since end,
            mm_api_status = $2, business_id = coalesce(business_id, $3)
      where id = $1`,
    [accountId, metaStatus, businessId],
  );
}

/**
 * Meta refused a send through `/marketing_messages` (131055): what Herald stored is out of date. Forgotten, so
 * sends go through `/messages` until Meta is asked again (the account's Settings read it).
 */
export async function forgetMmApiStatus(db: Queryable, accountId: number): Promise<void> {
  await db.query('update waba_accounts set mm_api_status = null, mm_api_status_since = now() where id = $1', [
    accountId,
  ]);
}

export async function markRequested(db: Queryable, accountId: number): Promise<void> {
  await db.query('update waba_accounts set mm_api_requested_at = now() where id = $1', [accountId]);
}

/** Whether Meta last said the account may send through the Marketing Messages API. */
export async function isMmApiOnboarded(db: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await db.query<{ onboarded: boolean }>(
    `select mm_api_status = 'ONBOARDED' as onboarded from waba_accounts where id = $1`,
    [accountId],
  );
  return rows[0]?.onboarded ?? false;
}

/**
 * The rule, over a template `t`, its account `w` and the account's settings `s`. A template with a max price goes
 * through the MM API whatever the setting: Cloud API refuses it.
 */
const ENDPOINT = `case when upper(t.category) = 'MARKETING' and w.mm_api_status = 'ONBOARDED'
                            and (coalesce(s.marketing_via_mm_api, true) or t.max_price_bid_amount is not null)
                       then 'marketing_messages' else 'messages' end`;

/**
 * The endpoint of each broadcast's messages, read before every batch: a template's category is its latest (a
 * re-categorisation lands between two batches) and so are the account's onboarding and its setting. Marketing
 * templates of an onboarded account go through `/marketing_messages` unless the account chose `/messages`;
 * everything else through `/messages` (Meta's routing guide).
 */
export async function endpointsFor(
  db: Queryable,
  accountId: number,
  broadcastIds: number[],
): Promise<Map<number, SendEndpoint>> {
  const { rows } = await db.query<{ id: number; endpoint: SendEndpoint }>(
    `select b.id::int, ${ENDPOINT} as endpoint
       from broadcasts b
       join waba_accounts w on w.id = b.waba_account_id
       left join templates t on t.waba_account_id = b.waba_account_id and t.id = b.template_id
       left join account_settings s on s.waba_account_id = w.id
      where b.waba_account_id = $1 and b.id = any($2::bigint[])`,
    [accountId, broadcastIds],
  );
  return new Map(rows.map((row) => [row.id, row.endpoint]));
}

/** The endpoint of one message of an account's template now (a test send), by the same rule. */
export async function templateEndpoint(
  db: Queryable,
  accountId: number,
  templateId: number,
): Promise<SendEndpoint> {
  const { rows } = await db.query<{ endpoint: SendEndpoint }>(
    `select ${ENDPOINT} as endpoint
       from waba_accounts w
       join templates t on t.waba_account_id = w.id and t.id = $2
       left join account_settings s on s.waba_account_id = w.id
      where w.id = $1`,
    [accountId, templateId],
  );
  return rows[0]?.endpoint ?? 'messages';
}
