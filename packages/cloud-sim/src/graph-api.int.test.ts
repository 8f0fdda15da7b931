import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../test/sandbox-client';
import type { SignedUp } from '../test/sandbox-client';
import { startSandbox } from './server';
import type { RunningSandbox } from './server';

let sandbox: RunningSandbox;
let url: string;
let account: SignedUp;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  url = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(async () => {
  await call(url, '/__sandbox/reset', { method: 'POST' });
  account = await signUpWithToken(url, { business_name: "Jasper's Market", phone_number: '+1 631 555 5555' });
});

function expectMetaError(body: unknown, code: number, subcode?: number) {
  expect(body).toMatchObject({ error: { code, type: expect.any(String), message: expect.any(String) } });
  const error = (body as { error: Record<string, unknown> }).error;
  expect(error.fbtrace_id).toMatch(/^[A-Za-z0-9]{10,}$/);
  if (subcode === undefined) expect(error).not.toHaveProperty('error_subcode');
  else expect(error.error_subcode).toBe(subcode);
}

describe('access tokens', () => {
  it('rejects a call without a token with 401 and code 190', async () => {
    const res = await call(url, `/v21.0/${account.waba_id}/phone_numbers`);
    expect(res.status).toBe(401);
    expectMetaError(res.body, 190);
    expect(res.body.error.type).toBe('OAuthException');
  });

  it('rejects an unknown but well-formed token with 401 and code 190', async () => {
    const res = await call(url, `/v21.0/${account.waba_id}/phone_numbers`, {
      token: 'EAAnotIssuedByTheSandbox',
    });
    expect(res.status).toBe(401);
    expectMetaError(res.body, 190);
    expect(res.body.error.message).toBe('Invalid OAuth access token - Cannot parse access token');
  });

  it('calls a garbage token malformed', async () => {
    const res = await call(url, `/v21.0/${account.phone_number_id}`, { token: 'not-a-token!' });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 190, message: 'Malformed access token' });
  });

  it('accepts the token as the access_token query parameter', async () => {
    const res = await call(url, `/v21.0/${account.phone_number_id}?access_token=${account.token}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(account.phone_number_id);
  });

  it("answers another customer's ids exactly like unknown ids", async () => {
    const other = await signUpWithToken(url, {
      business_name: 'Lucky Shrub',
      phone_number: '+44 7700 900123',
    });
    const wabaRes = await call(url, `/v21.0/${other.waba_id}/phone_numbers`, { token: account.token });
    expect(wabaRes.status).toBe(400);
    expectMetaError(wabaRes.body, 100, 33);
    const phoneRes = await call(url, `/v21.0/${other.phone_number_id}`, { token: account.token });
    expectMetaError(phoneRes.body, 100, 33);
    const registerRes = await call(url, `/v21.0/${other.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', pin: '123456' },
    });
    expectMetaError(registerRes.body, 100, 33);
    expect(registerRes.body.error.message).toContain('Unsupported post request');
  });
});

describe('unknown objects and routes', () => {
  it('answers an unknown id with code 100, subcode 33 and the id in the message', async () => {
    const res = await call(url, '/v21.0/123456789012345/phone_numbers', { token: account.token });
    expect(res.status).toBe(400);
    expectMetaError(res.body, 100, 33);
    expect(res.body.error.message).toBe(
      "Unsupported get request. Object with ID '123456789012345' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api",
    );
  });

  it('reads an unknown edge of a node the token sees as Graph does: a nonexisting field, after checking the token', async () => {
    const unauthenticated = await call(url, `/v21.0/${account.waba_id}/no_such_edge`);
    expect(unauthenticated.status).toBe(401);
    const res = await call(url, `/v21.0/${account.waba_id}/no_such_edge`, { token: account.token });
    expect(res.status).toBe(400);
    expectMetaError(res.body, 100);
    expect(res.body.error).toMatchObject({
      type: 'OAuthException',
      message:
        '(#100) Tried accessing nonexisting field (no_such_edge) on node type (WhatsAppBusinessAccount)',
    });
    const phone = await call(url, `/v21.0/${account.phone_number_id}/no_such_edge`, { token: account.token });
    expect(phone.body.error.message).toBe(
      '(#100) Tried accessing nonexisting field (no_such_edge) on node type (WhatsAppBusinessPhoneNumber)',
    );
    // Another customer's id, or one that does not exist, still answers as unknown (subcode 33).
    const unknown = await call(url, '/v21.0/123456789012345/no_such_edge', { token: account.token });
    expectMetaError(unknown.body, 100, 33);
  });
});

describe('request bodies', () => {
  const jsonType = { 'content-type': 'application/json' };
  const withoutTrace = (body: { error: Record<string, unknown> }) => ({
    ...body.error,
    fbtrace_id: undefined,
  });

  it('reads a JSON content type with no body as no parameters, as Graph does', async () => {
    const path = `/v21.0/${account.waba_id}/message_templates?name=no_such_template`;
    const bare = await call(url, path, { method: 'DELETE', token: account.token });
    const typed = await call(url, path, { method: 'DELETE', token: account.token, headers: jsonType });
    expect(typed.status).toBe(bare.status);
    expect(withoutTrace(typed.body)).toEqual(withoutTrace(bare.body));

    // A send with no body names what it misses, not the parser.
    const send = await call(url, `/v21.0/${account.phone_number_id}/messages`, {
      method: 'POST',
      token: account.token,
      headers: jsonType,
    });
    expect(send.status).toBe(400);
    expectMetaError(send.body, 100);
    expect(send.body.error.message).not.toMatch(/Body cannot be empty|FST_/);
  });

  it('answers a body that is not JSON with (#100), naming it', async () => {
    const response = await fetch(`${url}/v21.0/${account.phone_number_id}/messages`, {
      method: 'POST',
      headers: { ...jsonType, authorization: `Bearer ${account.token}` },
      body: '{"messaging_product": ',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expectMetaError(body, 100);
    expect(body.error.message).toBe('(#100) The request body is not valid JSON');
  });
});

describe('versioned paths', () => {
  it.each(['/v21.0', '/v18.0', '/v25.0', ''])('serves the phone numbers under "%s"', async (prefix) => {
    const res = await call(url, `${prefix}/${account.waba_id}/phone_numbers`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([account.phone_number_id]);
  });
});

describe('phone numbers', () => {
  it('lists the WABA numbers with every modelled field and paging cursors', async () => {
    const res = await call(url, `/v21.0/${account.waba_id}/phone_numbers`, { token: account.token });
    expect(res.status).toBe(200);
    const [phone] = res.body.data;
    expect(phone).toEqual({
      id: account.phone_number_id,
      display_phone_number: '+1 631-555-5555',
      verified_name: "Jasper's Market",
      code_verification_status: 'VERIFIED',
      quality_rating: 'GREEN',
      platform_type: 'CLOUD_API',
      throughput: { level: 'STANDARD' },
      last_onboarded_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
      messaging_limit_tier: 'TIER_250',
      whatsapp_business_manager_messaging_limit: 'TIER_250',
      status: 'PENDING',
      name_status: 'AVAILABLE_WITHOUT_REVIEW',
    });
    expect(res.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
    expect(res.body.paging.cursors.before).not.toBe('');
  });

  it('honours fields= and always includes the id', async () => {
    const res = await call(
      url,
      `/v21.0/${account.waba_id}/phone_numbers?fields=display_phone_number,whatsapp_business_manager_messaging_limit`,
      { token: account.token },
    );
    expect(res.body.data).toEqual([
      {
        id: account.phone_number_id,
        display_phone_number: '+1 631-555-5555',
        whatsapp_business_manager_messaging_limit: 'TIER_250',
      },
    ]);
  });

  it('reads one number by its id, with fields=', async () => {
    const full = await call(url, `/v21.0/${account.phone_number_id}`, { token: account.token });
    expect(full.body).toMatchObject({ id: account.phone_number_id, verified_name: "Jasper's Market" });
    const some = await call(url, `/v21.0/${account.phone_number_id}?fields=quality_rating,throughput`, {
      token: account.token,
    });
    expect(some.body).toEqual({
      id: account.phone_number_id,
      quality_rating: 'GREEN',
      throughput: { level: 'STANDARD' },
    });
  });

  it('reads the WABA node', async () => {
    const res = await call(url, `/v21.0/${account.waba_id}`, { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: account.waba_id,
      name: "Jasper's Market",
      currency: 'USD',
      timezone_id: expect.any(String),
      message_template_namespace: expect.stringMatching(/^[0-9a-f_]{36}$/),
    });
  });

  it('uses 15-digit numeric ids like Meta', () => {
    for (const id of [account.waba_id, account.phone_number_id, account.business_id]) {
      expect(id).toMatch(/^[1-9]\d{14}$/);
    }
  });
});

describe('register', () => {
  const register = (pin: unknown, body: Record<string, unknown> = { messaging_product: 'whatsapp' }) =>
    call(url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { ...body, pin },
    });

  it('registers with a 6-digit PIN and connects the number', async () => {
    const res = await register('123456');
    expect(res).toEqual({ status: 200, body: { success: true } });
    const phone = await call(url, `/v21.0/${account.phone_number_id}?fields=status`, {
      token: account.token,
    });
    expect(phone.body.status).toBe('CONNECTED');
    const state = await call(url, '/__sandbox/state');
    expect(state.body.registrations).toEqual([{ phone_number_id: account.phone_number_id, pin: '••••' }]);
  });

  it.each(['12345', '1234567', 'abcdef', '12 345'])(
    'rejects the PIN %j with code 100 naming pin',
    async (pin) => {
      const res = await register(pin);
      expect(res.status).toBe(400);
      expectMetaError(res.body, 100);
      expect(res.body.error.message).toMatch(/^\(#100\) .*pin/);
      const state = await call(url, '/__sandbox/state');
      expect(state.body.registrations).toEqual([]);
    },
  );

  it('rejects a missing PIN and a wrong messaging_product', async () => {
    const missing = await call(url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp' },
    });
    expect(missing.body.error).toMatchObject({ code: 100, message: '(#100) The parameter pin is required.' });
    const product = await register('123456', { messaging_product: 'sms' });
    expect(product.body.error.code).toBe(100);
    expect(product.body.error.message).toContain('messaging_product');
  });

  it('accepts the same PIN again but a different one fails with 133005', async () => {
    expect((await register('123456')).status).toBe(200);
    expect((await register('123456')).status).toBe(200);
    const res = await register('654321');
    expect(res.status).toBe(400);
    expectMetaError(res.body, 133005);
    expect(res.body.error.message).toBe('Two step verification PIN Mismatch');
    // The first PIN stayed: it still registers.
    expect((await register('123456')).status).toBe(200);
  });

  it('accepts a form-encoded body', async () => {
    const res = await call(url, `/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      token: account.token,
      form: { messaging_product: 'whatsapp', pin: '246810' },
    });
    expect(res).toEqual({ status: 200, body: { success: true } });
  });

  it('answers unparsable JSON with the Meta envelope', async () => {
    const response = await fetch(`${url}/v21.0/${account.phone_number_id}/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expectMetaError(await response.json(), 100);
  });
});

describe('subscribed_apps', () => {
  it('subscribes the token app, lists it, and unsubscribes it', async () => {
    const path = `/v21.0/${account.waba_id}/subscribed_apps`;
    expect((await call(url, path, { token: account.token })).body).toEqual({ data: [] });
    const post = await call(url, path, { method: 'POST', token: account.token });
    expect(post).toEqual({ status: 200, body: { success: true } });
    const list = await call(url, path, { token: account.token });
    expect(list.body).toEqual({
      data: [{ whatsapp_business_api_data: { id: 'herald-sandbox-app', name: 'Herald Sandbox App' } }],
    });
    const state = await call(url, '/__sandbox/state');
    expect(state.body.subscriptions).toEqual([
      { waba_id: account.waba_id, app_id: 'herald-sandbox-app', override_callback_uri: null },
    ]);
    expect((await call(url, path, { method: 'DELETE', token: account.token })).body).toEqual({
      success: true,
    });
    expect((await call(url, path, { token: account.token })).body).toEqual({ data: [] });
  });

  it('needs a token and a granted WABA', async () => {
    const path = `/v21.0/${account.waba_id}/subscribed_apps`;
    expect((await call(url, path, { method: 'POST' })).body.error.code).toBe(190);
    const other = await call(url, '/v21.0/111111111111111/subscribed_apps', {
      method: 'POST',
      token: account.token,
    });
    expectMetaError(other.body, 100, 33);
  });
});
