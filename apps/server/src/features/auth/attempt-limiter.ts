import type { Pool } from '../../db/pool';

export type AttemptKind = 'login' | 'password_reset';

/** More than this many failures for one e-mail or one address within the window → 429. */
export const MAX_FAILURES = 10;
export const WINDOW_SECONDS = 15 * 60;

/**
 * Counts failed attempts in Postgres so the limit holds across every server process. Returns the seconds
 * until the oldest failure in the window expires when the limit is reached, otherwise null.
 */
export async function retryAfterSeconds(
  pool: Pool,
  kind: AttemptKind,
  email: string,
  ip: string,
): Promise<number | null> {
  const { rows } = await pool.query<{ scope: string; failures: number; oldest: Date | null }>(
    `select 'email' as scope, count(*)::int as failures, min(attempted_at) as oldest
       from auth_attempts where kind = $1 and email = $2 and attempted_at > now() - make_interval(secs => $4)
     union all
     select 'ip', count(*)::int, min(attempted_at)
       from auth_attempts where kind = $1 and ip = $3 and attempted_at > now() - make_interval(secs => $4)`,
    [kind, email, ip, WINDOW_SECONDS],
  );
  let wait: number | null = null;
  for (const row of rows) {
    if (row.failures < MAX_FAILURES || !row.oldest) continue;
    // The window slides: one slot frees when the oldest failure in it ages out.
    const seconds = Math.max(
      1,
      Math.ceil((row.oldest.getTime() + WINDOW_SECONDS * 1000 - Date.now()) / 1000),
    );
    wait = Math.max(wait ?? 0, seconds);
  }
  return wait;
}

export async function recordFailure(pool: Pool, kind: AttemptKind, email: string, ip: string): Promise<void> {
  await pool.query('insert into auth_attempts (kind, email, ip) values ($1, $2, $3)', [kind, email, ip]);
  await pool.query("delete from auth_attempts where attempted_at < now() - interval '1 day'");
}
