import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPool, type Pool } from '../apps/server/src/db/pool';
import { adminQuery, withDatabase } from './database-server';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file (a clone of the run's template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('databaseAdminUrl');
  const template = inject('databaseTemplate');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${template}`);
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, 5);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
