import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from '../../../../../test-support/database-server';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { testConfig } from '../../../../../test-support/test-config';
import { createTestDatabase } from '../../../../../test-support/test-database';
import { buildApp } from '../../app';
import { ensureAppRole } from '../../db/app-role';
import { createPool } from '../../db/pool';
import { settleMessages } from '../broadcasts/sending/message-settle';
import { contactsUser, importCsv } from '../contacts/contacts-test-helpers';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

/** The value of one sample of the exposition text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const metrics = async (app = t.app, headers: Record<string, string> = {}) => {
  const response = await app.inject({ method: 'GET', url: '/metrics', headers });
  return { status: response.statusCode, text: response.body, response };
};

describe('/readyz', () => {
  it('answers 503 naming the migration that is not applied, and 200 once it is', async () => {
    const db = await createTestDatabase();
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: '/nonexistent' }),
      pool: db.pool,
      logger: false,
    });
    try {
      const { rows } = await db.pool.query<{ version: string; name: string; md5: string; run_at: Date }>(
        'delete from schema_migrations where version = (select max(version) from schema_migrations) returning *',
      );
      const latest = String(rows[0]!.version).padStart(3, '0');
      const behind = await app.inject({ method: 'GET', url: '/readyz' });
      expect(behind.statusCode).toBe(503);
      expect(behind.headers['retry-after']).toBe('5');
      expect(behind.json()).toMatchObject({
        status: 'unavailable',
        database: 'up',
        migrations: 'behind',
        reason: `migrations not applied: ${latest} (run herald migrate)`,
      });
      // Liveness does not depend on it.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await db.pool.query(
        'insert into schema_migrations (version, name, md5, run_at) values ($1, $2, $3, $4)',
        [rows[0]!.version, rows[0]!.name, rows[0]!.md5, rows[0]!.run_at],
      );
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ok', migrations: 'current', reason: null });
    } finally {
      await app.close();
      await db.drop();
    }
  });

  it('is ready as the least-privilege application role, which may read only the ledger’s versions', async () => {
    const db = await createTestDatabase();
    const role = `herald_ready_test_${randomBytes(4).toString('hex')}`;
    const appUrl = await ensureAppRole(db.url, role, randomBytes(18).toString('base64url'));
    const appPool = createPool(appUrl, 2);
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: '/nonexistent' }),
      pool: appPool,
      logger: false,
    });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode, ready.body).toBe(200);
      expect(ready.json()).toMatchObject({ migrations: 'current' });
      await expect(appPool.query('select name from schema_migrations')).rejects.toMatchObject({
        code: '42501',
      });
    } finally {
      await app.close();
      await appPool.end();
      await db.drop();
      await adminQuery(inject('databaseAdminUrl'), `drop role if exists ${role}`);
    }
  });
});

describe('request id', () => {
  it('keeps a sane X-Request-Id, answers it in the header and the error body, and logs it', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const db = await createTestDatabase();
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'info' }),
      pool: db.pool,
      logger: stream,
    });
    try {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        headers: { 'x-request-id': 'edge-7f3a.19' },
        payload: { username: 'not-an-email' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.headers['x-request-id']).toBe('edge-7f3a.19');
      expect(bad.json().request_id).toBe('edge-7f3a.19');
      expect(bad.json().errors.length).toBeGreaterThan(0);
      const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string; res?: object });
      expect(logged.find((l) => l.reqId === 'edge-7f3a.19' && l.msg === 'request completed')).toMatchObject({
        res: { statusCode: 400 },
      });

      // Not a plain token: replaced, never echoed.
      const odd = await app.inject({
        method: 'GET',
        url: '/api/nothing-here/',
        headers: { 'x-request-id': 'x"><script>' },
      });
      expect(odd.statusCode).toBe(404);
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(odd.json().request_id).toBe(odd.headers['x-request-id']);
      // A success carries the header only.
      const fine = await app.inject({ method: 'GET', url: '/healthz' });
      expect(fine.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(fine.json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await db.drop();
    }
  });
});

describe('/metrics', () => {
  it('serves the Prometheus text with every family Herald defines', async () => {
    const { status, text, response } = await metrics();
    expect(status).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    for (const name of [
      'herald_http_requests_total',
      'herald_http_request_duration_seconds',
      'herald_messages_sent_total',
      'herald_broadcast_queue_depth',
      'herald_webhook_ingestion_lag_seconds',
      'herald_contact_import_rows_total',
      'herald_db_pool_connections',
      'herald_db_pool_idle_connections',
      'herald_db_pool_waiting_clients',
      'herald_database_up',
      'herald_process_cpu_seconds_total',
      'herald_status_repairs_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(sample(text, 'herald_database_up')).toBe(1);
  });

  it('counts requests by route pattern and status, never by raw URL', async () => {
    await t.app.inject({ method: 'GET', url: '/broadcast/123456/recipients/' });
    const { text } = await metrics();
    expect(
      sample(
        text,
        'herald_http_requests_total{method="GET",route="/broadcast/:id/recipients/",status="401"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'herald_http_request_duration_seconds_count{method="GET",route="/broadcast/:id/recipients/",status="401"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('123456');
  });

  it('counts settled sends by outcome and Meta code', async () => {
    const series = 'herald_messages_sent_total{outcome="not_on_whatsapp",code="131026"}';
    const before = sample((await metrics()).text, series) ?? 0;
    // Ids no row has, in no account: only the counters move.
    await settleMessages(t.db.pool, 0, [
      { id: -1, state: 'not_on_whatsapp', code: 131026, title: 'Message undeliverable' },
      { id: -2, state: 'not_on_whatsapp', code: 131026, title: 'Message undeliverable' },
      // Given back unsent by a stopping worker: not a send.
      { id: -3, state: 'released' },
    ]);
    const { text } = await metrics();
    expect(sample(text, series)).toBe(before + 2);
    expect(text).not.toContain('outcome="released"');
  });

  it('reads the webhook ingestion lag at scrape', async () => {
    await t.db.pool.query(
      `insert into webhook_events (payload, received_at) values ('{"waiting":true}', now() - interval '42 seconds')`,
    );
    const lag = sample((await metrics()).text, 'herald_webhook_ingestion_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(42);
    expect(lag).toBeLessThan(120);
    await t.db.pool.query(`update webhook_events set processed_at = now() where processed_at is null`);
    expect(sample((await metrics()).text, 'herald_webhook_ingestion_lag_seconds')).toBe(0);
  });

  it('counts the rows of a finished import', async () => {
    const user = await contactsUser(t, 'metrics-import@acme.test');
    const before = sample((await metrics()).text, 'herald_contact_import_rows_total{kind="created"}') ?? 0;
    const imported = await importCsv(
      t,
      user.headers,
      'name,whatsapp_number\nAda,+14155550101\nBo,+14155550102\nCy,+14155550103\n',
    );
    expect(imported.statusCode, imported.body).toBe(201);
    const { text } = await metrics();
    expect(sample(text, 'herald_contact_import_rows_total{kind="created"}')).toBe(before + 3);
  });

  it('is refused through a proxy or from another machine unless the METRICS_TOKEN bearer is given', async () => {
    const proxied = await metrics(t.app, { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(403);
    expect(proxied.response.json().errors[0].field).toBe('authorization');
    expect(proxied.text).not.toContain('herald_');

    const token = randomBytes(24).toString('hex');
    const db = await createTestDatabase();
    const app = await buildApp({
      config: testConfig({ WEB_DIST_DIR: '/nonexistent', METRICS_TOKEN: token }),
      pool: db.pool,
      logger: false,
    });
    try {
      const remote = { 'x-forwarded-for': '203.0.113.9' };
      const none = await metrics(app, remote);
      expect(none.status).toBe(401);
      expect(none.response.headers['www-authenticate']).toBe('Bearer');
      expect((await metrics(app, { ...remote, authorization: `Bearer ${token}x` })).status).toBe(401);
      const allowed = await metrics(app, { ...remote, authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(allowed.text).toContain('herald_http_requests_total');
    } finally {
      await app.close();
      await db.drop();
    }
  });
});
