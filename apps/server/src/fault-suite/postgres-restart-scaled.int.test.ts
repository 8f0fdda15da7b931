import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test-support/database-server';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { buildApp } from '../app';
import { type EmbeddedCluster, startEmbeddedPostgres } from '../db/embedded-postgres';
import { migrate } from '../db/migrate';
import { createPool, type Pool } from '../db/pool';
import { signedInUser } from '../features/auth/auth-test-helpers';
import { QUICK_TAKEOVER, spawnTestWorker } from '../../../../test-support/worker';
import { sleep, waitFor } from './fault-setup';

// Postgres restarted (stop, then start on the same folder and port, as a managed database's maintenance does)
// in the middle of two broadcasts, under 2 API instances and 3 `herald work` processes.
// database-restart.int.test.ts proves one API and one in-process worker; here no process is restarted by the
// test: each reconnects by itself, both broadcasts complete, and nobody is messaged twice. The outage lasts 2 s
// here; bench/faults.bench.ts runs it for 60 s (FAULT_PG_OUTAGE_MS), longer than a sender's lease, where the
// statuses the sandbox retried must still land on every row.
const AUDIENCE = 1_500;
const OUTAGE_MS = Number(process.env.FAULT_PG_OUTAGE_MS ?? 2_000);
let dataDir: string;
let port: number;
const ownerPassword = randomBytes(18).toString('base64url');
let cluster: EmbeddedCluster;
let t: TestApp;
let second: { app: FastifyInstance; pool: Pool };
const workers: Array<ReturnType<typeof spawnTestWorker>> = [];

const startCluster = () => startEmbeddedPostgres({ dataDir, port, ownerPassword });
const sandbox = (route: string, body?: object) =>
  fetch(`${t.sandboxUrl}${route}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

/** A business with AUDIENCE contacts and an approved template, signed up through `api`. */
async function business(api: FastifyInstance, email: string, prefix: string) {
  const user = await signedInUser({ ...t, app: api }, email, `Shop ${prefix}`);
  const headers = { authorization: `Bearer ${user.accessToken}`, 'x-waba-id': user.business.waba_id };
  await sandbox(`/__sandbox/phone-numbers/${user.business.phone_number_id}`, { mps: 150 });
  await t.db.pool.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1${prefix}' || lpad(i::text, 7, '0')
       from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
    [AUDIENCE, user.business.waba_id],
  );
  const template = await api.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'restart_scaled',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  const templateId = template.json().id as number;
  await waitFor('the template to be approved', async () => {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [templateId]);
    return rows[0]?.status === 'APPROVED' ? true : undefined;
  });
  return { api, headers, phoneNumberId: user.business.phone_number_id as string, templateId };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-fault-pg-'));
  port = await freePort();
  cluster = await startCluster();
  await migrate(cluster.url);
  t = await startTestApp({}, { database: { url: cluster.url } });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  // The second API: the same app on a pool of its own, as a second `herald serve` behind the proxy.
  const pool = createPool(cluster.url, 5, () => undefined);
  second = { app: await buildApp({ config: t.config, pool, logger: false }), pool };
  await second.app.ready();
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
    // Every message is read, so every row's best status is known: 'read'. Webhooks refused during the outage
    // are retried as Meta does, with the wait between tries capped at 5 s instead of an hour.
    delivered_rate: 1,
    read_rate: 1,
    webhook_retry_max_wait_ms: 5_000,
  });
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await second?.app.close();
  await second?.pool.end();
  await t?.close();
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('Postgres restarted mid-broadcast under 2 API instances and 3 worker processes', () => {
  it(
    'every process reconnects by itself, both broadcasts complete, nobody is messaged twice',
    async () => {
      const a = await business(t.app, 'restart-a@acme.test', '632');
      const b = await business(second.app, 'restart-b@acme.test', '633');
      await t.db.pool.query("update phone_numbers set throughput_level = 'HIGH'");
      // The production lease (15 s): a sender rides a short outage out holding its number and writes the answers
      // of the requests it made meanwhile once Postgres is back (a 2 s lease would lapse during the outage).
      for (let i = 0; i < 3; i += 1)
        workers.push(
          spawnTestWorker({ app: t, databaseUrl: cluster.url, ...QUICK_TAKEOVER, leaseSeconds: 15 }),
        );

      const ids: number[] = [];
      for (const shop of [a, b]) {
        const created = await shop.api.inject({
          method: 'POST',
          url: '/broadcast/create/',
          headers: shop.headers,
          payload: {
            name: 'Restart',
            template_id: shop.templateId,
            recipients: { type: 'all', percentage: 100 },
          },
        });
        expect(created.statusCode, created.body).toBe(201);
        ids.push(created.json().id as number);
      }
      const sent = async (shop: typeof a) =>
        (
          (await sandbox(`/__sandbox/messages?phone_number_id=${shop.phoneNumberId}&limit=0`)) as {
            total: number;
          }
        ).total;
      await waitFor('both broadcasts to be under way', async () =>
        (await sent(a)) >= 200 && (await sent(b)) >= 200 ? true : undefined,
      );
      const before = [await sent(a), await sent(b)];
      await cluster.stop();
      const downAt = Date.now();
      // Both APIs answer 503 meanwhile (not a crash, not a hang).
      for (const api of [t.app, second.app]) {
        expect((await api.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      }
      await sleep(OUTAGE_MS);
      cluster = await startCluster();
      const upAt = Date.now();
      for (const api of [t.app, second.app]) {
        await waitFor('/readyz to answer 200', async () =>
          (await api.inject({ method: 'GET', url: '/readyz' })).statusCode === 200 ? true : undefined,
        );
      }
      for (const id of ids) {
        await waitFor(
          `broadcast ${id} to complete`,
          async () => {
            const { rows } = await t.db.pool.query('select status from broadcasts where id = $1', [id]);
            return rows[0]?.status === 'completed' ? true : undefined;
          },
          60_000 + OUTAGE_MS,
        );
      }
      const completedAt = Date.now();
      // No status lost: each message the sandbox accepted reaches 'read' on its row, those whose webhooks
      // Herald refused while Postgres was away included.
      for (const [index, shop] of [a, b].entries()) {
        const accepted = (
          (await sandbox(`/__sandbox/messages?phone_number_id=${shop.phoneNumberId}&limit=0`)) as {
            total: number;
          }
        ).total;
        await waitFor(
          `every accepted message of broadcast ${ids[index]} to be read`,
          async () => {
            const { rows } = await t.db.pool.query(
              "select count(*)::int as n from broadcast_messages where broadcast_id = $1 and state = 'read'",
              [ids[index]],
            );
            return rows[0].n === accepted ? true : undefined;
          },
          60_000,
        );
      }
      const readAt = Date.now();
      // No worker process died: each rode the restart out on its own.
      expect(workers.map((worker) => worker.exitCode)).toEqual([null, null, null]);

      const figures: string[] = [];
      for (const [index, shop] of [a, b].entries()) {
        const log = (await sandbox(
          `/__sandbox/messages?phone_number_id=${shop.phoneNumberId}&limit=0&requested=1`,
        )) as {
          total: number;
          unique_recipients: number;
          duplicate_recipients: unknown[];
          requested_recipients: string[];
        };
        expect(log.duplicate_recipients).toEqual([]);
        expect(log.total).toBe(log.unique_recipients);
        const { rows } = await t.db.pool.query<{ state: string; n: number }>(
          'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
          [ids[index]],
        );
        const byState = Object.fromEntries(rows.map((row) => [row.state, row.n]));
        expect(byState.queued ?? 0).toBe(0);
        expect(byState.sending ?? 0).toBe(0);
        const reached = ['accepted', 'sent', 'delivered', 'read'].reduce(
          (sum, s) => sum + (byState[s] ?? 0),
          0,
        );
        expect(reached).toBe(log.unique_recipients);
        // Nobody left unknown through an outage shorter than the lease: the senders wrote WhatsApp's answers to
        // the requests they made around it once Postgres was back (63 and 121 of 1,500 ended unknown, never sent,
        // before they did). Through a longer one a sender's lease may be taken over before it can write them:
        // then only a request that reached the sandbox, its answer lost with the lease, may end unknown.
        if (OUTAGE_MS < 10_000) expect(byState.unknown ?? 0).toBe(0);
        const requested = new Set(log.requested_recipients);
        const unknown = await t.db.pool.query<{ number: string }>(
          "select whatsapp_number as number from broadcast_messages where broadcast_id = $1 and state = 'unknown'",
          [ids[index]],
        );
        expect(unknown.rows.filter((row) => !requested.has(row.number.replace(/^\+/, '')))).toEqual([]);
        figures.push(`${before[index]} sent before, ${log.total} in all, ${JSON.stringify(byState)}`);
      }
      console.log(
        `Postgres restart under 2 API + 3 workers: away ${((upAt - downAt) / 1000).toFixed(1)} s; both broadcasts ` +
          `completed ${((completedAt - upAt) / 1000).toFixed(1)} s after it was back, every status applied ` +
          `${((readAt - upAt) / 1000).toFixed(1)} s after; ${figures.join('; ')}`,
      );
    },
    120_000 + 2 * OUTAGE_MS,
  );
});
