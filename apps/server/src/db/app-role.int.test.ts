import { randomBytes } from 'node:crypto';
import { startSandbox } from '@herald/cloud-sim';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { adminQuery } from '../../../../test-support/database-server';
import type { TestApp } from '../../../../test-support/test-app';
import { testConfig } from '../../../../test-support/test-config';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';
import { startTestWorker, type TestWorker } from '../../../../test-support/worker';
import { buildApp } from '../app';
import { signedInUser } from '../features/auth/auth-test-helpers';
import { contactsUser, importCsv } from '../features/contacts/contacts-test-helpers';
import { appRoleGrantsSql, ensureAppRole, migrateAndGrant, userOf } from './app-role';
import { createPool, type Pool } from './pool';

// Roles are cluster-wide: a name of its own per run, dropped at the end.
const role = `herald_app_test_${randomBytes(4).toString('hex')}`;
let db: TestDatabase;
let appUrl: string;
let appPool: Pool;
let t: TestApp;
let sandboxClose: () => Promise<void>;
let worker: TestWorker | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  appUrl = await ensureAppRole(db.url, role, randomBytes(18).toString('base64url'));
  appPool = createPool(appUrl, 5);
  const sandbox = await startSandbox({ port: 0 });
  sandboxClose = () => sandbox.close();
  const config = testConfig({ GRAPH_API_BASE: sandbox.url, WEB_DIST_DIR: '/nonexistent' });
  const app = await buildApp({ config, pool: appPool, logger: false });
  await app.ready();
  t = {
    app,
    db: { ...db, url: appUrl, pool: appPool },
    config,
    sandboxUrl: sandbox.url,
    close: async () => {},
  };
});

afterAll(async () => {
  await worker?.stop();
  await t?.app.close();
  await sandboxClose?.();
  await appPool?.end();
  await db?.drop();
  await adminQuery(inject('databaseAdminUrl'), `drop role if exists ${role}`);
});

/** One statement as the app role on its own connection; resolves with the SQLSTATE it failed with. */
async function failureOf(sql: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: appUrl });
  await client.connect();
  try {
    await client.query(sql);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await client.end();
  }
}

const INSUFFICIENT_PRIVILEGE = '42501';

describe('the application role', () => {
  it('logs in as itself and holds no superuser, role, database, replication or RLS-bypass attribute', async () => {
    expect(userOf(appUrl)).toBe(role);
    const { rows } = await appPool.query(
      `select current_user as name, current_setting('is_superuser') as superuser, r.rolsuper, r.rolcreaterole,
              r.rolcreatedb, r.rolreplication, r.rolbypassrls, r.rolcanlogin
         from pg_roles r where r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({
      name: role,
      superuser: 'off',
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolreplication: false,
      rolbypassrls: false,
      rolcanlogin: true,
    });
  });

  it.each([
    ['create a role', `create role ${role}_other`],
    ['create a database', `create database ${role}_other`],
    ['create a table in public', 'create table public.intruder (id int)'],
    ["create a table in pg-boss's schema", 'create table pgboss.intruder (id int)'],
    ['drop a table', 'drop table contacts'],
    ['alter a table', 'alter table contacts add column intruder int'],
    ['truncate a table', 'truncate contacts'],
    ['create a function', 'create function public.intruder() returns int language sql as $$ select 1 $$'],
    ['read the migration ledger', 'select * from schema_migrations'],
    ['make itself a superuser', `alter role ${role} superuser`],
    ['create a schema', 'create schema intruder'],
  ])('may not %s', async (_what, sql) => {
    expect(await failureOf(sql)).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it('can use temporary tables and COPY, as the import does', async () => {
    const client = new pg.Client({ connectionString: appUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('create temp table staging (id bigint) on commit drop');
      await client.query('truncate staging');
      await client.query('rollback');
    } finally {
      await client.end();
    }
  });
});

describe("Herald's main paths as the application role", () => {
  it('signs up, signs in, imports a CSV twice (staging and merge), deletes a contact', async () => {
    const { headers } = await contactsUser(t, 'least@privilege.test');
    const csv = 'name,number,email\nAda,+14155550100,ada@x.test\nBob,+14155550101,bob@x.test\n';
    const first = await importCsv(t, headers, csv, { tag: 'first' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ created: 2, updated: 0 });
    // The second import merges stored numbers through temp tables and reserves ids for the new one.
    const second = await importCsv(t, headers, `${csv}Cy,+14155550102,\n`, { tag: 'second' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ created: 1, updated: 2 });

    const list = await t.app.inject({ method: 'GET', url: '/recipient/create/?page_size=10', headers });
    expect(list.json().count).toBe(3);
    const ada = list.json().results.find((c: { recipient_name: string }) => c.recipient_name === 'Ada');
    // Deleting fires the statement trigger that removes the contact's tag links.
    const removed = await t.app.inject({ method: 'DELETE', url: `/recipient/${ada.id}/`, headers });
    expect(removed.statusCode).toBe(204);
    const links = await db.pool.query('select count(*)::int as n from contact_tags where contact_id = $1', [
      ada.id,
    ]);
    expect(links.rows[0].n).toBe(0);
  });

  it('runs the worker (pg-boss and the broadcast engine) and sends a broadcast made through the API', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    await fetch(`${t.sandboxUrl}/__sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook_url: `${address}/webhooks/whatsapp`,
        review_delay_ms: 50,
        status_delays_ms: { sent: 10, delivered: 20, read: 30 },
        pair_rate_window_ms: 0,
      }),
    });
    worker = await startTestWorker({
      app: t,
      databaseUrl: appUrl,
      pool: appPool,
      broadcasts: true,
      graphVersion: 'v21.0',
    });
    const owner = await signedInUser(t, 'sender@privilege.test', 'Sender Shop');
    const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
    const imported = await importCsv(t, headers, 'name,number\nDee,+14155550200\nEd,+14155550201\n');
    expect(imported.statusCode).toBe(201);

    const template = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: {
        name: 'hello_least',
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Hello {{1}}, welcome.' }],
        dynamic_variables: { body_variable: { '1': 'name' } },
      },
    });
    expect(template.statusCode).toBe(201);
    const templateId = template.json().id;
    await waitFor(async () => {
      const { rows } = await db.pool.query('select status from templates where id = $1', [templateId]);
      return rows[0].status === 'APPROVED';
    });

    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: {
        name: 'Least privilege',
        template_id: templateId,
        recipients: { type: 'all', percentage: 100 },
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await waitFor(async () => {
      const { rows } = await db.pool.query('select status from broadcasts where id = $1', [id]);
      return rows[0].status === 'completed';
    });
    const sent = await db.pool.query(
      'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and wamid is not null',
      [id],
    );
    expect(sent.rows[0].n).toBe(2);
    // pg-boss ran its heartbeat job as the app role too.
    await waitFor(async () => {
      const { rows } = await db.pool.query('select count(*)::int as n from worker_heartbeats');
      return rows[0].n > 0;
    });
  });
});

describe('grants that follow migrations', () => {
  it('covers a table a later migration creates (default privileges), and migrateAndGrant re-grants', async () => {
    await db.pool.query('create table later_feature (id bigint generated always as identity, note text)');
    const client = new pg.Client({ connectionString: appUrl });
    await client.connect();
    try {
      const { rows } = await client.query("insert into later_feature (note) values ('ok') returning id");
      expect(Number(rows[0].id)).toBe(1);
    } finally {
      await client.end();
    }
    const result = await migrateAndGrant(db.url, appUrl);
    expect(result).toMatchObject({ applied: [], grantedTo: role });
  });

  it('is one idempotent SQL text naming the role and database', () => {
    const sql = appRoleGrantsSql({ role: 'herald_app', database: 'herald' });
    expect(sql).toContain('grant connect, temporary on database "herald" to "herald_app"');
    expect(sql).toContain('alter default privileges in schema public, pgboss');
    expect(() => appRoleGrantsSql({ role: 'x"; drop table y; --', database: 'herald' })).toThrow(/role/);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
