import type { PoolClient } from 'pg';
import type { Pool } from './pool';

/** Runs `work` in one transaction on one connection: commit on success, roll back on any error. */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // Set when the rollback itself fails: the connection is broken (a database restart), so the pool drops it.
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Postgres unique_violation, with the constraint it broke. */
export function uniqueViolation(error: unknown): string | undefined {
  const pgError = error as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}
