import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

let sandbox: RunningSandbox;
let dir: string;
let logFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-'));
  // A directory that does not exist yet: the log creates it.
  logFile = join(dir, 'nested', 'calls.jsonl');
  sandbox = await startSandbox({ port: 0, logFile });
});

afterAll(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function logLines(): Promise<Record<string, unknown>[]> {
  const text = await readFile(logFile, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('control API', () => {
  it('creates a WABA with a number and a code, defaulting the name and number', async () => {
    const res = await call(sandbox.url, '/__sandbox/wabas', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      waba_id: expect.stringMatching(/^\d{15}$/),
      phone_number_id: expect.stringMatching(/^\d{15}$/),
      business_id: expect.stringMatching(/^\d{15}$/),
      code: expect.stringMatching(/^AQ/),
    });
    const state = await call(sandbox.url, '/__sandbox/state');
    const waba = state.body.wabas.find((w: { id: string }) => w.id === res.body.waba_id);
    expect(waba).toMatchObject({
      business_id: res.body.business_id,
      phone_number_ids: [res.body.phone_number_id],
    });
    const phone = state.body.phone_numbers.find((p: { id: string }) => p.id === res.body.phone_number_id);
    expect(phone.digits).toMatch(/^1555\d{7}$/);
    // The code is the caller's own answer; the state, read by anyone allowed the control API, masks it.
    expect(state.body.codes).toContainEqual(expect.objectContaining({ code: '••••', used: false }));
    expect(JSON.stringify(state.body)).not.toContain(res.body.code);
  });

  it('rejects an impossible phone number with code 100', async () => {
    const res = await call(sandbox.url, '/__sandbox/wabas', {
      method: 'POST',
      json: { business_name: 'X', phone_number: 'call me' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(100);
    expect(res.body.error.message).toContain('phone_number');
  });

  it('reset clears every kind of state', async () => {
    const account = await signUpWithToken(sandbox.url, {
      business_name: 'Lucky Shrub',
      phone_number: '447700900123',
    });
    await call(sandbox.url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', pin: '123456' },
    });
    await call(sandbox.url, `/v21.0/${account.waba_id}/subscribed_apps`, {
      method: 'POST',
      token: account.token,
    });
    const before = (await call(sandbox.url, '/__sandbox/state')).body;
    expect(before.tokens_count).toBeGreaterThan(0);
    expect(before.registrations.length).toBe(1);
    expect(before.subscriptions.length).toBe(1);
    expect(before.phone_numbers).toContainEqual(
      expect.objectContaining({ display_phone_number: '+44 7700 900123', digits: '447700900123' }),
    );

    expect(await call(sandbox.url, '/__sandbox/reset', { method: 'POST' })).toEqual({
      status: 200,
      body: { ok: true },
    });
    const after = (await call(sandbox.url, '/__sandbox/state')).body;
    expect(after).toEqual({
      app_id: 'herald-sandbox-app',
      businesses: [],
      wabas: [],
      phone_numbers: [],
      codes: [],
      tokens_count: 0,
      subscriptions: [],
      registrations: [],
      templates: [],
      uploads: [],
      media: [],
      pending_reviews: [],
      webhook_deliveries: [],
      messaging: {
        accepted_count: 0,
        pending_statuses: 0,
        statuses_posted: 0,
        posts: 0,
        pending_expiries: 0,
        unreachable_recipients: [],
        faults: {
          error_rate_5xx: 0,
          rate_limit_rate: 0,
          rate_limit_burst: null,
          latency_ms: 0,
          marketing_limit_rate: 0,
        },
      },
      config: expect.objectContaining({
        review_delay_ms: 2000,
        webhook_url: null,
        webhook_retry_base_ms: 500,
        webhook_retry_max_wait_ms: 3_600_000,
        webhook_retry_max_age_ms: 7 * 24 * 3_600_000,
        webhook_max_attempts: null,
      }),
    });
    // The token died with the state.
    const res = await call(sandbox.url, `/v21.0/${account.waba_id}`, { token: account.token });
    expect(res.body.error.code).toBe(190);
  });
});

describe('call log', () => {
  it('appends one line per state-changing call, with the PIN and secrets redacted', async () => {
    await call(sandbox.url, '/__sandbox/reset', { method: 'POST' });
    const start = (await logLines()).length;
    const account = await signUpWithToken(sandbox.url);
    await call(sandbox.url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', pin: '975310' },
    });
    // Reads and rejected calls change nothing, so they are not logged.
    await call(sandbox.url, `/v21.0/${account.waba_id}/phone_numbers`, { token: account.token });
    await call(sandbox.url, '/__sandbox/state');
    await call(sandbox.url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', pin: '000000' },
    });
    await call(sandbox.url, `/v21.0/${account.waba_id}/subscribed_apps`, {
      method: 'POST',
      token: account.token,
    });

    const lines = (await logLines()).slice(start);
    expect(lines.map((l) => `${l.method} ${l.path}`)).toEqual([
      'POST /__sandbox/wabas',
      'GET /oauth/access_token',
      `POST /${account.phone_number_id}/register`,
      `POST /${account.waba_id}/subscribed_apps`,
    ]);
    for (const line of lines) expect(new Date(line.ts as string).getTime()).not.toBeNaN();
    expect(lines[1]?.body).toMatchObject({ client_id: 'herald-sandbox-app', client_secret: '******' });
    expect(lines[2]).toMatchObject({
      body: { messaging_product: 'whatsapp', pin: '******' },
      result: { success: true },
    });
    const raw = await readFile(logFile, 'utf8');
    expect(raw).not.toContain('975310');
    expect(raw).not.toContain('herald-sandbox-secret');
  });

  it('only ever appends', async () => {
    const before = await readFile(logFile, 'utf8');
    await call(sandbox.url, '/__sandbox/reset', { method: 'POST' });
    const after = await readFile(logFile, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
  });
});

describe('no log file', () => {
  it('works without writing anything when logFile is absent', async () => {
    const quiet = await startSandbox({ port: 0 });
    try {
      const res = await call(quiet.url, '/__sandbox/wabas', { method: 'POST' });
      expect(res.status).toBe(201);
    } finally {
      await quiet.close();
    }
  });
});
