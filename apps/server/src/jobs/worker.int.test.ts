import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';
import { startWorker, type Worker } from './worker';

let db: TestDatabase;
let worker: Worker;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = await startWorker({ databaseUrl: db.url, pool: db.pool });
});

afterAll(async () => {
  await worker.stop();
  await db.drop();
});

describe('job worker', () => {
  it('runs the heartbeat job through the Postgres queue', async () => {
    const deadline = Date.now() + 15_000;
    let beats = 0;
    while (Date.now() < deadline) {
      const { rows } = await db.pool.query<{ count: string }>('select count(*) from worker_heartbeats');
      beats = Number(rows[0]?.count);
      if (beats > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(beats).toBeGreaterThan(0);
    // The job went through pg-boss's tables, not a direct call.
    const { rows } = await db.pool.query(
      "select count(*)::int as n from pgboss.job where name = 'heartbeat'",
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('schedules the heartbeat every minute', async () => {
    const schedules = await worker.boss.getSchedules();
    expect(schedules.find((schedule) => schedule.name === 'heartbeat')?.cron).toBe('* * * * *');
  });
});

describe('webhook sweep', () => {
  it('applies a stored event that the API never got to apply', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `insert into webhook_events (payload) values ('{"entry":[{"id":"1","changes":[{"field":"unknown_field","value":{}}]}]}')
       returning id`,
    );
    await worker.boss.send('webhook-sweep', {});
    const deadline = Date.now() + 15_000;
    let processed = null;
    while (Date.now() < deadline && !processed) {
      processed = (
        await db.pool.query('select processed_at from webhook_events where id = $1', [rows[0]!.id])
      ).rows[0].processed_at;
      if (!processed) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(processed).not.toBeNull();
  });
});
