import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  pin_hash: string;
}

type Queryable = Pool | PoolClient;

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    'select id::int, email, password_hash, pin_hash from users where email = $1',
    [email],
  );
  return rows[0];
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    'select id::int, email, password_hash, pin_hash from users where id = $1',
    [id],
  );
  return rows[0];
}

export async function insertUser(
  db: Queryable,
  email: string,
  passwordHash: string,
  pinHash: string,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'insert into users (email, password_hash, pin_hash) values ($1, $2, $3) returning id::int',
    [email, passwordHash, pinHash],
  );
  return rows[0]!.id;
}

export async function updatePassword(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.query('update users set password_hash = $2, updated_at = now() where id = $1', [
    userId,
    passwordHash,
  ]);
}

/** Sets a new e-mail and/or password hash (null keeps the stored one); answers the e-mail now stored. */
export async function updateCredentials(
  db: Queryable,
  userId: number,
  email: string | null,
  passwordHash: string | null,
): Promise<string> {
  const { rows } = await db.query<{ email: string }>(
    `update users set email = coalesce($2, email), password_hash = coalesce($3, password_hash), updated_at = now()
      where id = $1 returning email`,
    [userId, email, passwordHash],
  );
  return rows[0]!.email;
}
