import {
  accountSendingStop,
  type AccountHealthResponse,
  type AccountRestriction,
  VIOLATION_SHOWN_DAYS,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { metaTime } from './account-health-webhooks';

const DAY_MS = 86_400_000;

/**
 * The account's standing now: the ban unless reinstated, the restrictions not yet expired (an expiry lifts a
 * restriction without a webhook) and a recent violation. All empty for an account Meta never reported on.
 */
export async function readAccountHealth(
  pool: Pool,
  accountId: number,
  now = Date.now(),
): Promise<AccountHealthResponse> {
  const { rows } = await pool.query<{
    ban_state: string | null;
    ban_date: string | null;
    ban_since: Date | null;
    restrictions: AccountRestriction[];
    restricted_since: Date | null;
    violation_type: string | null;
    violation_at: Date | null;
  }>(
    `select ban_state, ban_date, ban_since, restrictions, restricted_since, violation_type, violation_at
       from account_health where waba_account_id = $1`,
    [accountId],
  );
  const row = rows[0];
  if (!row) return { ban: null, restrictions: [], restricted_since: null, violation: null };
  const restrictions = row.restrictions.filter(
    (r) => r.expires_at === null || Date.parse(r.expires_at) > now,
  );
  const violationShown = row.violation_at && row.violation_at.getTime() > now - VIOLATION_SHOWN_DAYS * DAY_MS;
  return {
    ban:
      row.ban_state && row.ban_since
        ? {
            state: row.ban_state,
            date: row.ban_date === null ? null : (metaTime(row.ban_date) ?? row.ban_date),
            since: row.ban_since.toISOString(),
          }
        : null,
    restrictions,
    restricted_since: restrictions.length > 0 ? (row.restricted_since?.toISOString() ?? null) : null,
    violation:
      violationShown && row.violation_type
        ? { type: row.violation_type, at: row.violation_at!.toISOString() }
        : null,
  };
}

/** The account's standing when there is something to show; undefined while it is in good standing. */
export async function readShownAccountHealth(
  pool: Pool,
  accountId: number,
): Promise<AccountHealthResponse | undefined> {
  const health = await readAccountHealth(pool, accountId);
  return health.ban || health.restrictions.length > 0 || health.violation ? health : undefined;
}

/** Why the account may send nothing now (a ban, a restriction of business-initiated messaging), or null. */
export async function readSendingStop(pool: Pool, accountId: number): Promise<string | null> {
  return accountSendingStop(await readAccountHealth(pool, accountId));
}
