import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../test/sandbox-client';
import { buildSandboxApp, DEFAULT_APP_SECRET } from './app';
import { startSandbox } from './server';
import type { RunningSandbox } from './server';

const TOKEN = 'control-token-0123456789abcdef';
const ELSEWHERE = '203.0.113.7';

describe('who may use the control API', () => {
  it('answers it without a token only to callers on this machine that came through no proxy', async () => {
    const app = buildSandboxApp();
    try {
      const local = await app.inject({ method: 'GET', url: '/__sandbox/state', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
      const remote = await app.inject({ method: 'GET', url: '/__sandbox/state', remoteAddress: ELSEWHERE });
      expect(remote.statusCode).toBe(403);
      expect(remote.json().error.message).toContain('SANDBOX_CONTROL_TOKEN');
      for (const header of [{ 'x-forwarded-for': ELSEWHERE }, { forwarded: `for=${ELSEWHERE}` }]) {
        const proxied = await app.inject({ method: 'GET', url: '/__sandbox/config', headers: header });
        expect(proxied.statusCode).toBe(403);
      }
      const reset = await app.inject({ method: 'POST', url: '/__sandbox/wabas', remoteAddress: ELSEWHERE });
      expect(reset.statusCode).toBe(403);
      const spelled = await app.inject({
        method: 'GET',
        url: '/%5F%5Fsandbox/state',
        remoteAddress: ELSEWHERE,
      });
      expect(spelled.statusCode).toBe(403);
      // The Graph API and the Embedded Signup SDK stay open to browsers and Herald elsewhere.
      expect((await app.inject({ method: 'GET', url: '/sdk.js', remoteAddress: ELSEWHERE })).statusCode).toBe(
        200,
      );
      const graph = await app.inject({ method: 'GET', url: '/v21.0/me', remoteAddress: ELSEWHERE });
      expect(graph.statusCode).toBe(401);
      expect(graph.json().error.code).toBe(190);
    } finally {
      await app.close();
    }
  });

  it('asks every caller for SANDBOX_CONTROL_TOKEN once one is set, this machine included', async () => {
    const app = buildSandboxApp({ controlToken: TOKEN });
    try {
      const bare = await app.inject({ method: 'GET', url: '/__sandbox/state' });
      expect(bare.statusCode).toBe(401);
      expect(bare.headers['www-authenticate']).toBe('Bearer');
      const wrong = await app.inject({
        method: 'GET',
        url: '/__sandbox/state',
        headers: { authorization: `Bearer ${TOKEN.slice(1)}x` },
      });
      expect(wrong.statusCode).toBe(401);
      const remote = await app.inject({
        method: 'POST',
        url: '/__sandbox/wabas',
        remoteAddress: ELSEWHERE,
        headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': ELSEWHERE },
      });
      expect(remote.statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });
});

describe('secrets in control answers', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('never shows a PIN, a token, the app secret or an OAuth code', async () => {
    const pin = '731946';
    const account = await signUpWithToken(sandbox.url);
    const registered = await call(sandbox.url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', pin },
    });
    expect(registered.status).toBe(200);
    // A business whose sign-up has not reached Herald yet: its code is still unspent.
    const pending = await call(sandbox.url, '/__sandbox/wabas', { method: 'POST' });
    const secrets = [pin, account.token, account.code, pending.body.code, DEFAULT_APP_SECRET];

    const reads = [
      '/__sandbox/state',
      '/__sandbox/config',
      '/__sandbox/faults',
      '/__sandbox/messages',
      `/__sandbox/portfolios/${account.business_id}`,
    ];
    for (const path of reads) {
      const response = await fetch(`${sandbox.url}${path}`);
      expect(response.status, path).toBe(200);
      const text = await response.text();
      for (const secret of secrets) expect(text, path).not.toContain(secret);
    }
    const state = (await call(sandbox.url, '/__sandbox/state')).body;
    expect(state.registrations).toEqual([{ phone_number_id: account.phone_number_id, pin: '••••' }]);
    expect(state.codes.map((c: { code: string; used: boolean }) => [c.code, c.used])).toEqual([
      ['••••', true],
      ['••••', false],
    ]);
  });

  it('shows them only to a test that asked its own in-process sandbox to', async () => {
    const own = await startSandbox({ port: 0, revealSecretsInState: true });
    try {
      const account = await signUpWithToken(own.url);
      await call(own.url, `/v21.0/${account.phone_number_id}/register`, {
        method: 'POST',
        token: account.token,
        json: { messaging_product: 'whatsapp', pin: '246810' },
      });
      const state = (await call(own.url, '/__sandbox/state')).body;
      expect(state.registrations).toEqual([{ phone_number_id: account.phone_number_id, pin: '246810' }]);
      expect(state.codes[0].code).toBe(account.code);
    } finally {
      await own.close();
    }
  });
});
