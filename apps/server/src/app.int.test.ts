import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testConfig } from '../../../test-support/test-config';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-database';
import { buildApp } from './app';
import { createPool } from './db/pool';

let db: TestDatabase;
let app: FastifyInstance;
let webDistDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  webDistDir = await mkdtemp(path.join(os.tmpdir(), 'herald-web-'));
  await writeFile(
    path.join(webDistDir, 'index.html'),
    '<!doctype html><title>Herald</title><div id="root"></div>',
  );
  await writeFile(path.join(webDistDir, 'app.js'), 'console.log("herald")');
  app = await buildApp({ config: testConfig({ WEB_DIST_DIR: webDistDir }), pool: db.pool, logger: false });
  // Probe routes that exercise the shared error handling the way feature routes will.
  app
    .withTypeProvider<ZodTypeProvider>()
    .post(
      '/api/probe/',
      { schema: { body: z.object({ email: z.email(), page_size: z.number().int().min(1) }) } },
      async (request) => ({ ok: request.body.email }),
    );
  app.get('/api/boom/', async () => {
    throw new Error('secret internals at /srv/db.ts:42');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('GET /healthz and /readyz', () => {
  it('/readyz answers 200 when the database answers and migrations are current', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: 'up',
      migrations: 'current',
      reason: null,
      last_worker_heartbeat: null,
    });
  });

  it('/readyz reports the latest worker heartbeat', async () => {
    await db.pool.query(
      "insert into worker_heartbeats (worker_id, beat_at) values ('w1', '2026-01-02T03:04:05Z')",
    );
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.json().last_worker_heartbeat).toBe('2026-01-02T03:04:05.000Z');
  });

  it('/readyz answers 503 when the database is unreachable, while /healthz (alive) still answers 200', async () => {
    const deadPool = createPool('postgres://nobody@127.0.0.1:1/nothing', 1, () => undefined);
    const deadApp = await buildApp({
      config: testConfig({ WEB_DIST_DIR: webDistDir }),
      pool: deadPool,
      logger: false,
    });
    try {
      const response = await deadApp.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'unavailable', database: 'down' });
      expect(response.json().reason).toMatch(/^database unreachable/);
      const alive = await deadApp.inject({ method: 'GET', url: '/healthz' });
      expect(alive.statusCode).toBe(200);
      expect(alive.json()).toEqual({ status: 'ok' });
    } finally {
      await deadApp.close();
      await deadPool.end();
    }
  });
});

describe('errors', () => {
  it('answers 400 naming every invalid field', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/probe/',
      payload: { email: 'not-an-email', page_size: 0 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.detail).toContain('email');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'page_size']);
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/probe/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBeTruthy();
  });

  it('answers 404 JSON for an unknown API route', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/nothing-here/',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json().detail).toContain('/api/nothing-here/');
  });

  it('hides internals of an unexpected error behind a generic 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/boom/' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret internals');
    expect(response.json()).toEqual({
      detail: 'Internal server error',
      request_id: response.headers['x-request-id'],
    });
  });
});

describe('OpenAPI', () => {
  it('serves the document generated from the zod schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths['/healthz'].get.responses['200']).toBeDefined();
    expect(document.paths['/readyz'].get.responses['503']).toBeDefined();
    expect(JSON.stringify(document)).toContain('last_worker_heartbeat');
  });

  it('serves Swagger UI at /docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.body.toLowerCase()).toContain('swagger');
  });
});

describe('single-page app', () => {
  it('serves index.html for client routes', async () => {
    const response = await app.inject({ method: 'GET', url: '/customers', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
  });

  it('serves built assets as files', async () => {
    const response = await app.inject({ method: 'GET', url: '/app.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('herald');
  });
});

describe('real listener', () => {
  it('answers /healthz and /readyz over HTTP', async () => {
    const listening = await buildApp({
      config: testConfig({ WEB_DIST_DIR: webDistDir }),
      pool: db.pool,
      logger: false,
    });
    try {
      const address = await listening.listen({ host: '127.0.0.1', port: 0 });
      const response = await fetch(`${address}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${address}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ database: 'up', migrations: 'current' });
    } finally {
      await listening.close();
    }
  });
});
