import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test-support/database-server';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { startTestWorker, type TestWorker } from '../../../../test-support/worker';
import { signedInUser } from '../features/auth/auth-test-helpers';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from './database-unavailable';
import { type EmbeddedCluster, startEmbeddedPostgres } from './embedded-postgres';
import { migrate } from './migrate';
import { createPool, type Pool } from './pool';
import { withTransaction } from './transaction';

// A Postgres cluster of this test's own, restarted (stop + start on the same folder and port) under a running
// API and worker, as a managed Postgres restarts for maintenance: nothing may crash, the API answers 503 while
// the database is away, and everything resumes by itself (decision 021).
const RECIPIENTS = 30;
let dataDir: string;
let port: number;
const ownerPassword = randomBytes(18).toString('base64url');
let cluster: EmbeddedCluster;
let t: TestApp;
let workerPool: Pool;
let worker: TestWorker;
let headers: Record<string, string>;
let phoneNumberId: string;
let templateId: number;
const crashes: unknown[] = [];
const workerErrors: string[] = [];
const onCrash = (error: unknown) => crashes.push(error);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const startCluster = () => startEmbeddedPostgres({ dataDir, port, ownerPassword });
const sandbox = (route: string, body?: object) =>
  fetch(`${t.sandboxUrl}${route}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());
// Readiness is what depends on the database (/healthz is liveness and stays 200 meanwhile).
const healthz = () => t.app.inject({ method: 'GET', url: '/readyz' });

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function broadcastToAll(name: string): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: { name, template_id: templateId, recipients: { type: 'all', percentage: 100 } },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as number;
}

const completed = (broadcastId: number, timeoutMs?: number) =>
  waitFor(
    `broadcast ${broadcastId} to complete`,
    async () => {
      const { rows } = await t.db.pool.query('select status from broadcasts where id = $1', [broadcastId]);
      return rows[0]?.status === 'completed' ? true : undefined;
    },
    timeoutMs,
  );

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-restart-pg-'));
  port = await freePort();
  cluster = await startCluster();
  await migrate(cluster.url);
  t = await startTestApp({}, { database: { url: cluster.url } });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
  });
  const owner = await signedInUser(t, 'restart@acme.test');
  phoneNumberId = owner.business.phone_number_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  await t.db.pool.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1629' || lpad(i::text, 7, '0')
       from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
    [RECIPIENTS, owner.business.waba_id],
  );
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'restart_test',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  templateId = template.json().id;
  await waitFor('the template to be approved', async () => {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [templateId]);
    return rows[0]?.status === 'APPROVED' ? true : undefined;
  });
  workerPool = createPool(cluster.url, 4, (error) => workerErrors.push(`pool: ${error.message}`));
  worker = await startTestWorker({
    app: t,
    databaseUrl: cluster.url,
    pool: workerPool,
    onError: (error) => workerErrors.push(error.message),
    broadcasts: true,
  });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await workerPool?.end();
  await t?.close();
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

describe('a database restart under a running API and worker', () => {
  it('crashes nothing, answers 503 while the database is away, and recovers by itself', async () => {
    // Before: everything works, and the pools hold open connections for the restart to break.
    await completed(await broadcastToAll('Before the restart'));
    expect((await healthz()).statusCode).toBe(200);

    // Connections checked out of the pool when the restart comes (the original crash: a client in use has
    // no listener of the pool's): one idle in a transaction, one in a transaction still working.
    const held = await t.db.pool.connect();
    await held.query('begin');
    const working = withTransaction(t.db.pool, async (client) => {
      await sleep(1_500);
      await client.query('select 1');
    }).then(
      () => 'committed',
      (error: unknown) => error,
    );

    await cluster.stop();
    const downAt = Date.now();
    expect(isDatabaseUnavailable(await working)).toBe(true);
    await expect(held.query('select 1')).rejects.toSatisfy(isDatabaseUnavailable);
    held.release();

    const health = await healthz();
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'unavailable', database: 'down' });
    const list = await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers });
    expect(list.statusCode, list.body).toBe(503);
    expect(list.json().detail).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    expect(list.headers['retry-after']).toBe('5');
    const create = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'While away', template_id: templateId, recipients: { type: 'all', percentage: 100 } },
    });
    expect(create.statusCode, create.body).toBe(503);
    // Let the worker's engine loop, LISTEN connection and pg-boss fail a few times while it is away.
    await sleep(1_500);

    cluster = await startCluster();
    const upAt = Date.now();
    await waitFor('/readyz to answer 200', async () =>
      (await healthz()).statusCode === 200 ? true : undefined,
    );
    const recoveredAt = Date.now();
    console.log(
      `database restart: away ${((upAt - downAt) / 1000).toFixed(1)} s; /readyz 200 again ${(
        (recoveredAt - upAt) /
        1000
      ).toFixed(1)} s after the cluster was back`,
    );

    // After: the API answers again, and the worker (the same, never restarted) sends a new broadcast whole.
    const after = await broadcastToAll('After the restart');
    await completed(after);
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
      [after],
    );
    const reached = rows
      .filter((row) => ['accepted', 'sent', 'delivered', 'read'].includes(row.state))
      .reduce((sum, row) => sum + row.n, 0);
    expect(reached).toBe(RECIPIENTS);
    const log = (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=0`)) as {
      total: number;
      unique_recipients: number;
      duplicate_recipients: unknown[];
    };
    // Two broadcasts to the same 30 people: each got exactly two messages, nobody a third.
    expect(log.total).toBe(2 * RECIPIENTS);
    expect(log.unique_recipients).toBe(RECIPIENTS);

    // The worker saw the outage (and said so) but kept running; nothing reached the process as a crash.
    expect(workerErrors.length).toBeGreaterThan(0);
    expect(crashes.map((error) => (error as Error)?.stack ?? String(error))).toEqual([]);
  }, 60_000);
  it('mid-broadcast: the broadcast completes after the restart and nobody is messaged twice', async () => {
    const second = await signedInUser(t, 'midway@acme.test', 'Midway Shop');
    const secondHeaders = {
      authorization: `Bearer ${second.accessToken}`,
      'x-waba-id': second.business.waba_id,
    };
    const audience = 400;
    await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number)
       select w.id, 'Person ' || i, '+1630' || lpad(i::text, 7, '0')
         from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
      [audience, second.business.waba_id],
    );
    const template = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers: secondHeaders,
      payload: {
        name: 'midway_test',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
        dynamic_variables: { body_variable: { '1': 'name' } },
      },
    });
    const secondTemplate = template.json().id as number;
    await waitFor('the template to be approved', async () => {
      await t.app.webhooks.idle();
      const { rows } = await t.db.pool.query('select status from templates where id = $1', [secondTemplate]);
      return rows[0]?.status === 'APPROVED' ? true : undefined;
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers: secondHeaders,
      payload: { name: 'Midway', template_id: secondTemplate, recipients: { type: 'all', percentage: 100 } },
    });
    const broadcastId = created.json().id as number;
    // At the number's 80 messages a second, 400 take about 5 s: restart once about a quarter has left.
    const sentSoFar = async () =>
      (
        (await sandbox(`/__sandbox/messages?phone_number_id=${second.business.phone_number_id}&limit=0`)) as {
          total: number;
        }
      ).total;
    await waitFor('the broadcast to be under way', async () =>
      (await sentSoFar()) >= 100 ? true : undefined,
    );
    const restartAfter = await sentSoFar();
    await cluster.stop();
    await sleep(1_000);
    cluster = await startCluster();
    const upAt = Date.now();
    await completed(broadcastId, 40_000);
    const completedAt = Date.now();
    await t.app.webhooks.idle();
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${second.business.phone_number_id}&limit=0`,
    )) as { total: number; unique_recipients: number; duplicate_recipients: unknown[] };
    expect(log.duplicate_recipients).toEqual([]);
    expect(log.total).toBe(log.unique_recipients);
    const { rows } = await t.db.pool.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
      [broadcastId],
    );
    const byState = Object.fromEntries(rows.map((row) => [row.state, row.n]));
    console.log(
      `mid-broadcast restart after ${restartAfter} of ${audience} sent: completed ${(
        (completedAt - upAt) /
        1000
      ).toFixed(
        1,
      )} s after the cluster was back; ${log.total} sent, ${log.duplicate_recipients.length} duplicates; ${JSON.stringify(byState)}`,
    );
    const reached = ['accepted', 'sent', 'delivered', 'read'].reduce((sum, s) => sum + (byState[s] ?? 0), 0);
    // Every message the sandbox accepted is known as such; none is left waiting.
    expect(reached).toBe(log.unique_recipients);
    expect(byState.queued ?? 0).toBe(0);
    expect(byState.sending ?? 0).toBe(0);
    expect(crashes.map((error) => (error as Error)?.stack ?? String(error))).toEqual([]);
  }, 60_000);
});
