import type { WabaAccount } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import type { GraphPhoneNumber } from '../../graph/graph-client';
import type { OwnedWaba } from '../../owned-waba';
import { setPortfolioTier } from '../broadcasts/index';

type Queryable = Pool | PoolClient;

export async function findWabaOwner(db: Queryable, wabaId: string): Promise<number | undefined> {
  const { rows } = await db.query<{ user_id: number }>(
    'select user_id::int from waba_accounts where waba_id = $1',
    [wabaId],
  );
  return rows[0]?.user_id;
}

/** The caller's account named by `wabaId`, or their first account when `wabaId` is absent. */
export async function findOwnedWaba(
  db: Queryable,
  userId: number,
  wabaId?: string,
): Promise<OwnedWaba | undefined> {
  const { rows } = await db.query<{
    id: number;
    waba_id: string;
    user_id: number;
    business_token_encrypted: string;
  }>(
    wabaId === undefined
      ? `select id::int, waba_id, user_id::int, business_token_encrypted from waba_accounts
          where user_id = $1 order by id limit 1`
      : `select id::int, waba_id, user_id::int, business_token_encrypted from waba_accounts
          where user_id = $1 and waba_id = $2`,
    wabaId === undefined ? [userId] : [userId, wabaId],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        wabaId: row.waba_id,
        userId: row.user_id,
        businessTokenEncrypted: row.business_token_encrypted,
      }
    : undefined;
}

export async function insertWaba(
  db: Queryable,
  waba: {
    wabaId: string;
    userId: number;
    name?: string;
    businessId?: string;
    businessTokenEncrypted: string;
    /** The Marketing Messages API status Meta gave with the account at sign-up, when it gave one. */
    mmApiStatus?: string;
  },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into waba_accounts (waba_id, user_id, name, business_id, business_token_encrypted,
                                mm_api_status, mm_api_status_since)
     values ($1, $2, $3, $4, $5, $6, case when $6::text is null then null else now() end) returning id::int`,
    [
      waba.wabaId,
      waba.userId,
      waba.name ?? null,
      waba.businessId ?? null,
      waba.businessTokenEncrypted,
      waba.mmApiStatus ?? null,
    ],
  );
  return rows[0]!.id;
}

/**
 * Inserts or refreshes the account's numbers as the Cloud API reported them, and the portfolio's messaging
 * limit tier they show (the same on every number of the portfolio, Meta's Cloud API documentation).
 */
export async function upsertPhoneNumbers(
  db: Queryable,
  wabaAccountId: number,
  numbers: GraphPhoneNumber[],
  twoStepPins: Map<string, string> = new Map(),
): Promise<void> {
  for (const number of numbers) {
    await db.query(
      `insert into phone_numbers (waba_account_id, phone_number_id, display_phone_number, verified_name,
                                  quality_rating, throughput_level, messaging_limit_tier, two_step_pin_encrypted,
                                  status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (phone_number_id) do update set
         display_phone_number = excluded.display_phone_number, verified_name = excluded.verified_name,
         quality_rating = excluded.quality_rating, throughput_level = excluded.throughput_level,
         messaging_limit_tier = excluded.messaging_limit_tier,
         status = coalesce(excluded.status, phone_numbers.status),
         two_step_pin_encrypted = coalesce(excluded.two_step_pin_encrypted, phone_numbers.two_step_pin_encrypted),
         synced_at = now()
       where phone_numbers.waba_account_id = excluded.waba_account_id`,
      [
        wabaAccountId,
        number.id,
        number.display_phone_number,
        number.verified_name,
        number.quality_rating ?? null,
        number.throughput?.level ?? null,
        number.whatsapp_business_manager_messaging_limit ?? number.messaging_limit_tier ?? null,
        twoStepPins.get(number.id) ?? null,
        // Meta's status (CONNECTED, FLAGGED, …): whether the number may be chosen to send a broadcast. Sign-up
        // lists the numbers before registering the chosen one (the one given a PIN), which registration connects.
        twoStepPins.has(number.id) && number.status === 'PENDING' ? 'CONNECTED' : (number.status ?? null),
      ],
    );
  }
  const tier = numbers.find(
    (n) => n.whatsapp_business_manager_messaging_limit,
  )?.whatsapp_business_manager_messaging_limit;
  if (tier) await setPortfolioTier(db, wabaAccountId, tier);
}

/** The caller's accounts in the login answer's shape: one `details` entry per number. */
export async function listWabaAccounts(db: Queryable, userId: number): Promise<WabaAccount[]> {
  const { rows } = await db.query<{
    waba_id: string;
    name: string | null;
    phone_number_id: string | null;
    display_phone_number: string | null;
    verified_name: string | null;
  }>(
    `select w.waba_id, w.name, p.phone_number_id, p.display_phone_number, p.verified_name
       from waba_accounts w left join phone_numbers p on p.waba_account_id = w.id
      where w.user_id = $1
      order by w.id, p.id`,
    [userId],
  );
  const accounts = new Map<string, WabaAccount>();
  for (const row of rows) {
    const account = accounts.get(row.waba_id) ?? { waba_id: row.waba_id, details: [] };
    accounts.set(row.waba_id, account);
    if (row.phone_number_id) {
      account.details.push({
        display_name: row.verified_name ?? row.name ?? row.waba_id,
        phone_number_id: row.phone_number_id,
        display_phone_number: row.display_phone_number ?? '',
      });
    }
  }
  return [...accounts.values()];
}
