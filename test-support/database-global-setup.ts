import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { migrate } from '../apps/server/src/db/migrate';
import { adminQuery, openDatabaseServer, withDatabase } from './database-server';

/**
 * Once per integration run: a uniquely named, migrated template database. Each test file clones it
 * (test-support/test-database.ts), so runs never collide; teardown drops the template and every clone.
 */
export default async function setup(project: TestProject) {
  const server = await openDatabaseServer();
  const runId = `herald_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(server.adminUrl, `create database ${runId}`);
  await migrate(withDatabase(server.adminUrl, runId));
  project.provide('databaseAdminUrl', server.adminUrl);
  project.provide('databaseTemplate', runId);

  return async () => {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: server.adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'select datname from pg_database where datname like $1',
        [`${runId}%`],
      );
      for (const { datname } of rows) await client.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await client.end();
    }
    await server.stop();
  };
}
