import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type RefreshUse =
  | { outcome: 'ok'; userId: number; family: string }
  | { outcome: 'reused'; family: string }
  | { outcome: 'invalid' };

export async function insertRefreshToken(
  pool: Pool,
  token: { jti: string; family: string; userId: number; expiresAt: Date },
): Promise<void> {
  await pool.query('insert into refresh_tokens (jti, family, user_id, expires_at) values ($1, $2, $3, $4)', [
    token.jti,
    token.family,
    token.userId,
    token.expiresAt,
  ]);
}

/**
 * Marks a refresh token used, atomically: of two concurrent uses exactly one wins. A token already used
 * (or from a revoked family) is reported as reused so the caller revokes the family.
 */
export async function useRefreshToken(pool: Pool, jti: string): Promise<RefreshUse> {
  const used = await pool.query<{ user_id: number; family: string }>(
    `update refresh_tokens set used_at = now()
      where jti = $1 and used_at is null and revoked_at is null and expires_at > now()
      returning user_id::int, family::text`,
    [jti],
  );
  if (used.rows[0]) return { outcome: 'ok', userId: used.rows[0].user_id, family: used.rows[0].family };
  const existing = await pool.query<{ family: string; used: boolean }>(
    'select family::text, used_at is not null as used from refresh_tokens where jti = $1',
    [jti],
  );
  const row = existing.rows[0];
  if (row?.used) return { outcome: 'reused', family: row.family };
  return { outcome: 'invalid' };
}

export async function revokeFamily(pool: Pool, family: string): Promise<void> {
  await pool.query('update refresh_tokens set revoked_at = now() where family = $1 and revoked_at is null', [
    family,
  ]);
}

export async function revokeAllForUser(pool: Pool, userId: number): Promise<void> {
  await pool.query('update refresh_tokens set revoked_at = now() where user_id = $1 and revoked_at is null', [
    userId,
  ]);
}

/**
 * Whether an access token's session (refresh family) is live for that user: it exists, belongs to the user,
 * was not revoked (logout, reuse, a credential change) and has a refresh token not yet expired. One lookup
 * on the family index; a token naming a session Herald never started is refused, not just a revoked one.
 */
export async function sessionIsActive(pool: Pool, family: string, userId: number): Promise<boolean> {
  // Families are uuids: anything else names no session (and would make Postgres refuse the cast).
  if (!UUID.test(family)) return false;
  const { rows } = await pool.query<{ active: boolean | null }>(
    `select bool_and(revoked_at is null and user_id = $2) and bool_or(expires_at > now()) as active
       from refresh_tokens where family = $1`,
    [family, userId],
  );
  return rows[0]?.active === true;
}

/** Ends every session of the user but one (its refresh family): the one that changed the credentials. */
export async function revokeOtherSessions(
  db: Pool | PoolClient,
  userId: number,
  keepFamily: string,
): Promise<void> {
  await db.query(
    'update refresh_tokens set revoked_at = now() where user_id = $1 and family <> $2 and revoked_at is null',
    [userId, keepFamily],
  );
}
