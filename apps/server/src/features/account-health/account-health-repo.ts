import {
  accountHealthNotices,
  accountSendingStop,
  type AccountHealthResponse,
  type AccountRestriction,
  VIOLATION_SHOWN_DAYS,
} from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { metaTime } from './meta-time';

const DAY_MS = 86_400_000;

const GOOD_STANDING: AccountHealthResponse = {
  ban: null,
  restrictions: [],
  restricted_since: null,
  violation: null,
  disconnected: null,
  review: null,
};

/**
 * The account's standing now: the ban unless reinstated, the restrictions not yet expired (an expiry lifts a
 * restriction without a webhook) and a recent violation. All empty for an account Meta never reported on.
 */
export async function readAccountHealth(
  db: Pool | PoolClient,
  accountId: number,
  now = Date.now(),
): Promise<AccountHealthResponse> {
  const { rows } = await db.query<{
    ban_state: string | null;
    ban_date: string | null;
    ban_since: Date | null;
    restrictions: AccountRestriction[];
    restricted_since: Date | null;
    violation_type: string | null;
    violation_at: Date | null;
    disconnected_by: string | null;
    disconnected_since: Date | null;
    review_decision: string | null;
    review_since: Date | null;
  }>(
    `select ban_state, ban_date, ban_since, restrictions, restricted_since, violation_type, violation_at,
            disconnected_by, disconnected_since, review_decision, review_since
       from account_health where waba_account_id = $1`,
    [accountId],
  );
  const row = rows[0];
  if (!row) return GOOD_STANDING;
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
    disconnected:
      row.disconnected_by && row.disconnected_since
        ? { event: row.disconnected_by, since: row.disconnected_since.toISOString() }
        : null,
    review:
      row.review_decision && row.review_since
        ? { decision: row.review_decision, since: row.review_since.toISOString() }
        : null,
  };
}

/** The account's standing when there is something to show; undefined while it is in good standing. */
export async function readShownAccountHealth(
  pool: Pool,
  accountId: number,
): Promise<AccountHealthResponse | undefined> {
  const health = await readAccountHealth(pool, accountId);
  return accountHealthNotices(health).length > 0 ? health : undefined;
}

/** Why the account may send nothing now (a ban, a restriction of business-initiated messaging), or null. */
export async function readSendingStop(pool: Pool, accountId: number): Promise<string | null> {
  return accountSendingStop(await readAccountHealth(pool, accountId));
}
