import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../test/sandbox-client';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

let sandbox: RunningSandbox;
let code: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, appId: '1234567890', appSecret: 'shh-secret' });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  await call(sandbox.url, '/__sandbox/reset', { method: 'POST' });
  code = (await call(sandbox.url, '/__sandbox/wabas', { method: 'POST', json: {} })).body.code;
});

function exchange(params: Record<string, string>, prefix = '/v21.0') {
  return call(sandbox.url, `${prefix}/oauth/access_token?${new URLSearchParams(params).toString()}`);
}

describe('GET /oauth/access_token', () => {
  it('exchanges a code once for a bearer token that works', async () => {
    const res = await exchange({ client_id: '1234567890', client_secret: 'shh-secret', code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^EAA[A-Za-z0-9]+$/),
      token_type: 'bearer',
      expires_in: 5183944,
    });
    const state = await call(sandbox.url, '/__sandbox/state');
    const wabaId = state.body.wabas[0].id;
    const numbers = await call(sandbox.url, `/v21.0/${wabaId}/phone_numbers`, {
      token: res.body.access_token,
    });
    expect(numbers.status).toBe(200);
    expect(state.body.codes[0].used).toBe(true);
    expect(state.body.tokens_count).toBe(1);
  });

  it('refuses the second exchange of the same code with subcode 36009', async () => {
    expect((await exchange({ client_id: '1234567890', client_secret: 'shh-secret', code })).status).toBe(200);
    const again = await exchange({ client_id: '1234567890', client_secret: 'shh-secret', code }, '');
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: 100,
      error_subcode: 36009,
      type: 'OAuthException',
      message: 'This authorization code has been used.',
    });
    expect((await call(sandbox.url, '/__sandbox/state')).body.tokens_count).toBe(1);
  });

  it('refuses a code it never issued with subcode 36008', async () => {
    const res = await exchange({ client_id: '1234567890', client_secret: 'shh-secret', code: 'AQnope' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 36008 });
  });

  it('refuses a wrong client secret with code 1 and does not spend the code', async () => {
    const res = await exchange({ client_id: '1234567890', client_secret: 'wrong', code });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 1,
      message: 'Error validating client secret.',
      type: 'OAuthException',
    });
    expect((await exchange({ client_id: '1234567890', client_secret: 'shh-secret', code })).status).toBe(200);
  });

  it('refuses a wrong client id with code 101', async () => {
    const res = await exchange({ client_id: 'herald-sandbox-app', client_secret: 'shh-secret', code });
    expect(res.body.error).toMatchObject({
      code: 101,
      message: 'Error validating application. Invalid application ID.',
    });
  });

  it('needs a code', async () => {
    const res = await exchange({ client_id: '1234567890', client_secret: 'shh-secret' });
    expect(res.body.error).toMatchObject({ code: 100, message: '(#100) The parameter code is required.' });
  });
});
