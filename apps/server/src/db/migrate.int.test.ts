import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { adminQuery, withDatabase } from '../../../../test-support/database-server';
import { migrate } from './migrate';
import pg from 'pg';

// An empty database, not the migrated template: this file tests the migrations themselves.
const name = `${inject('databaseTemplate')}_empty`;
const adminUrl = inject('databaseAdminUrl');
const url = withDatabase(adminUrl, name);

beforeAll(() => adminQuery(adminUrl, `create database ${name}`));
afterAll(() => adminQuery(adminUrl, `drop database if exists ${name} with (force)`));

describe('migrate', () => {
  it('applies every migration once, even when started concurrently', async () => {
    const [first, second] = await Promise.all([migrate(url), migrate(url)]);
    const applied = [...first.applied, ...second.applied];
    expect(applied).toContain('001.do.foundation.sql');
    expect(applied.filter((file) => file === '001.do.foundation.sql')).toHaveLength(1);
    expect(first.version).toBeGreaterThanOrEqual(1);

    const again = await migrate(url);
    expect(again.applied).toEqual([]);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("select to_regclass('public.worker_heartbeats') as table_name");
      expect(rows[0].table_name).toBe('worker_heartbeats');
    } finally {
      await client.end();
    }
  });
});
