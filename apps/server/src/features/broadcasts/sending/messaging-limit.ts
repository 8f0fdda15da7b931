import { MESSAGING_LIMIT_OF_TIER, type MessagingLimit } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';
import { requeueUnsent } from '../message-rows';

type Queryable = Pool | PoolClient;

/**
 * Meta's window is a moving 24 hours; Herald stamps a reach when it reserves, a moment before Meta accepts the
 * send, so a reach is kept a minute longer than 24 h: Herald's window frees a little after Meta's, never before
 * (decision 027).
 */
export const LIMIT_WINDOW_SECONDS = 24 * 60 * 60 + 60;

/** The portfolio of a `waba_accounts w` row, as the migration's portfolio_key() names it. */
export const PORTFOLIO_OF_WABA = 'portfolio_key(w.user_id, w.business_id, w.waba_id)';

/**
 * A tier as Meta reports it: a TIER_* string (`whatsapp_business_manager_messaging_limit`, and
 * `max_daily_conversations_per_business` today) or, in older webhook payloads, a number of users with -1 for
 * unlimited. Answers null for a value Herald cannot read (the stored tier is then left alone).
 */
export function parseTier(raw: unknown): { tier: string; limit: number | null } | null {
  if (typeof raw === 'string' && raw in MESSAGING_LIMIT_OF_TIER) {
    return { tier: raw, limit: MESSAGING_LIMIT_OF_TIER[raw] ?? null };
  }
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) return null;
  if (n < 0) return { tier: 'TIER_UNLIMITED', limit: null };
  const tier = Object.entries(MESSAGING_LIMIT_OF_TIER).find(([, limit]) => limit === n)?.[0];
  return { tier: tier ?? String(n), limit: n };
}

/**
 * Stores the portfolio's tier for the WABA (Herald's waba_accounts id). When the limit rises, broadcasts of the
 * portfolio waiting for the window are let go at once: the next batch is reserved against the new limit.
 */
export async function setPortfolioTier(db: Queryable, wabaAccountId: number, raw: unknown): Promise<void> {
  const parsed = parseTier(raw);
  if (!parsed) return;
  const { rows } = await db.query<{ key: string; raised: boolean }>(
    `with w as (select ${PORTFOLIO_OF_WABA} as key from waba_accounts w where w.id = $1),
     old as (select p.reach_limit from messaging_portfolios p, w where p.key = w.key)
     insert into messaging_portfolios as p (key, tier, reach_limit, tier_updated_at)
     select w.key, $2, $3, now() from w
     on conflict (key) do update set tier = excluded.tier, reach_limit = excluded.reach_limit,
            tier_updated_at = now()
       where (p.tier, p.reach_limit) is distinct from (excluded.tier, excluded.reach_limit)
     returning p.key, (select reach_limit from old) is not null
               and (p.reach_limit is null or p.reach_limit > (select reach_limit from old)) as raised`,
    [wabaAccountId, parsed.tier, parsed.limit],
  );
  if (rows[0]?.raised) {
    // Broadcast rows locked by id, the order every writer of them uses (decision 022).
    await db.query(
      `with x as (select b.id from broadcasts b join waba_accounts w on w.id = b.waba_account_id
                   where ${PORTFOLIO_OF_WABA} = $1 and b.waiting_until is not null order by b.id for no key update of b)
       update broadcasts b set waiting_until = null from x where b.id = x.id`,
      [rows[0].key],
    );
  }
}

/** The portfolio's limit as New broadcast shows it (read only: the next reservation prunes). */
export async function readMessagingLimit(db: Queryable, wabaAccountId: number): Promise<MessagingLimit> {
  const { rows } = await db.query<{
    tier: string | null;
    reach_limit: number | null;
    reached: number;
    frees_at: Date | null;
  }>(
    `with k as (select ${PORTFOLIO_OF_WABA} as key from waba_accounts w where w.id = $1),
     live as (select r.reached_at from portfolio_reach r, k
               where r.portfolio = k.key and r.reached_at > now() - make_interval(secs => $2))
     select p.tier, p.reach_limit, (select count(*)::int from live) as reached,
            (select min(reached_at) + make_interval(secs => $2) from live) as frees_at
       from k left join messaging_portfolios p on p.key = k.key`,
    [wabaAccountId, LIMIT_WINDOW_SECONDS],
  );
  const row = rows[0];
  const limit = row?.reach_limit ?? null;
  const reached = row?.reached ?? 0;
  return {
    tier: row?.tier ?? null,
    limit,
    reached,
    left: limit === null ? null : Math.max(0, limit - reached),
    frees_at: row?.frees_at ? row.frees_at.toISOString() : null,
  };
}

/**
 * Reserves the limit for a batch about to be sent (migration 013's reserve_reach, one atomic statement): the
 * numbers that may be sent now, and when the window frees if some could not.
 */
export async function reserveReach(
  pool: Pool,
  portfolio: string,
  numbers: string[],
): Promise<{ allowed: Set<string>; freesAt: Date | null }> {
  const { rows } = await pool.query<{ allowed: string[]; frees_at: Date | null }>(
    'select allowed, frees_at from reserve_reach($1, $2::text[], $3)',
    [portfolio, numbers, LIMIT_WINDOW_SECONDS],
  );
  return { allowed: new Set(rows[0]!.allowed), freesAt: rows[0]!.frees_at };
}

/**
 * Gives rows that did not fit the limit back to the queue (the attempt not counted: nothing was requested)
 * and marks their broadcasts waiting until the window frees; senders skip a waiting broadcast until then.
 */
export async function waitForLimit(
  pool: Pool,
  accountId: number,
  messageIds: number[],
  broadcastIds: number[],
  freesAt: Date,
): Promise<void> {
  // Message rows locked in id order, as every writer of them does (decision 022).
  await requeueUnsent(pool, accountId, messageIds);
  await pool.query(
    `with x as (select id from broadcasts where id = any($1::bigint[]) and status = 'sending' order by id for no key update)
     update broadcasts b set waiting_until = $2 from x where b.id = x.id`,
    [broadcastIds, freesAt],
  );
}

/** A batch of these broadcasts was let through: they are no longer waiting. */
export async function stopWaiting(pool: Pool, broadcastIds: number[]): Promise<void> {
  await pool.query(
    `with x as (select id from broadcasts where id = any($1::bigint[]) and waiting_until is not null
                 order by id for no key update)
     update broadcasts b set waiting_until = null from x where b.id = x.id`,
    [broadcastIds],
  );
}

/**
 * Reserves the portfolio's 24-hour limit for a batch about to be sent (decision 027) and answers the ids that
 * may go now. The rest go back to the queue unsent and their broadcasts wait until the window frees.
 */
export async function reserveBatch(
  pool: Pool,
  { portfolio, accountId }: { portfolio: string; accountId: number },
  messages: Array<{ id: number; broadcast_id: number; whatsapp_number: string; was_waiting?: boolean }>,
  log?: { info: (details: object, message: string) => void },
): Promise<Set<number>> {
  if (messages.length === 0) return new Set();
  const { allowed, freesAt } = await reserveReach(
    pool,
    portfolio,
    messages.map((m) => m.whatsapp_number),
  );
  const held = messages.filter((m) => !allowed.has(m.whatsapp_number));
  const sent = messages.filter((m) => allowed.has(m.whatsapp_number));
  // Only a broadcast that was waiting needs clearing: spares a statement per batch otherwise.
  const resumed = sent.filter((m) => m.was_waiting);
  if (resumed.length > 0) await stopWaiting(pool, [...new Set(resumed.map((m) => m.broadcast_id))]);
  if (held.length > 0) {
    await waitForLimit(
      pool,
      accountId,
      held.map((m) => m.id),
      [...new Set(held.map((m) => m.broadcast_id))],
      // Only a limit of 0 leaves nothing to expire; look again in a minute then.
      freesAt ?? new Date(Date.now() + 60_000),
    );
    log?.info(
      { portfolio, held: held.length, freesAt },
      'messaging limit reached: waiting for the 24-hour window',
    );
  }
  return new Set(sent.map((m) => m.id));
}
