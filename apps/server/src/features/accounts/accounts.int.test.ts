import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { sandboxBusiness, sandboxState, signedInUser } from '../auth/auth-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function connect(token: string, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/auth/facebook/callback/',
    headers: bearer(token),
    payload,
  });
}

describe('PUT /api/auth/facebook/callback/ (connect a further account)', () => {
  it('links a second account; GET /api/auth/wabas/ then lists both', async () => {
    const user = await signedInUser(t, 'connect@acme.test', 'First Shop');
    const second = await sandboxBusiness(t.sandboxUrl, 'Second Shop');
    const response = await connect(user.accessToken, {
      payload: {
        code: second.code,
        account_data: { waba_id: second.waba_id, phone_number_id: second.phone_number_id },
      },
    });
    expect(response.statusCode).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/auth/wabas/',
      headers: bearer(user.accessToken),
    });
    expect(
      list.json().wabas.map((w: { details: Array<{ display_name: string }> }) => w.details[0]?.display_name),
    ).toEqual(['First Shop', 'Second Shop']);
    expect((await sandboxState(t.sandboxUrl)).registrations.map((r) => r.phone_number_id)).toContain(
      second.phone_number_id,
    );
  });

  it('refuses, once the code is proven, an account linked to another user (409) and one already connected (409)', async () => {
    const alice = await signedInUser(t, 'alice-c@acme.test');
    const bob = await signedInUser(t, 'bob-c@acme.test');
    // A code belongs to one Embedded Signup, so an account already linked is written directly to meet a fresh one.
    const linkedTo = async (email: string) => {
      const business = await sandboxBusiness(t.sandboxUrl);
      await t.db.pool.query(
        `insert into waba_accounts (waba_id, user_id, business_token_encrypted)
         select $1, id, 'sealed' from users where email = $2`,
        [business.waba_id, email],
      );
      return {
        payload: {
          code: business.code,
          account_data: { waba_id: business.waba_id, phone_number_id: business.phone_number_id },
        },
      };
    };
    const stolen = await connect(bob.accessToken, await linkedTo('alice-c@acme.test'));
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().errors[0]).toEqual({
      field: 'waba_id',
      message: 'This WhatsApp Business Account is already linked to another user',
    });
    const again = await connect(bob.accessToken, await linkedTo('bob-c@acme.test'));
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].message).toBe('This WhatsApp Business Account is already connected');
    // Without a proven code nothing is said about the account: Alice's spent code answers 400 on the code.
    const replayed = await connect(bob.accessToken, {
      payload: {
        code: alice.business.code,
        account_data: { waba_id: alice.business.waba_id, phone_number_id: alice.business.phone_number_id },
      },
    });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().errors[0].field).toBe('payload.code');
  });

  it('answers 400 naming the field for a bad payload or a bad code, 401 without a token', async () => {
    const user = await signedInUser(t, 'bad-connect@acme.test');
    const missing = await connect(user.accessToken, {
      payload: { account_data: { waba_id: '1', phone_number_id: '2' } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('payload.code');
    const noIds = await connect(user.accessToken, { payload: { code: 'x', account_data: {} } });
    expect(noIds.json().errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(['payload.account_data.waba_id', 'payload.account_data.phone_number_id']),
    );
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/auth/facebook/callback/', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    const fresh = await sandboxBusiness(t.sandboxUrl);
    const badCode = await connect(user.accessToken, {
      payload: {
        code: 'forged',
        account_data: { waba_id: fresh.waba_id, phone_number_id: fresh.phone_number_id },
      },
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().errors).toEqual([
      {
        field: 'payload.code',
        message: 'The Embedded Signup code is invalid or has expired. Start the signup again.',
      },
    ]);
  });
});

describe('GET /meta/phone/whatsapp/ and X-WABA-ID', () => {
  it('lists the selected account’s numbers from the Cloud API with the spec’s fields', async () => {
    const user = await signedInUser(t, 'numbers@acme.test', 'Numbers Co');
    const response = await t.app.inject({
      method: 'GET',
      url: '/meta/phone/whatsapp/',
      headers: { ...bearer(user.accessToken), 'x-waba-id': user.business.waba_id },
    });
    expect(response.statusCode).toBe(200);
    const [number] = response.json().data;
    expect(number).toMatchObject({
      id: user.business.phone_number_id,
      verified_name: 'Numbers Co',
      display_phone_number: expect.stringMatching(/^\+/),
      code_verification_status: expect.any(String),
      quality_rating: expect.any(String),
      platform_type: expect.any(String),
      throughput: { level: expect.any(String) },
      last_onboarded_time: expect.any(String),
    });
  });

  it('uses the caller’s first account when X-WABA-ID is absent, and switches with the header', async () => {
    const user = await signedInUser(t, 'switch@acme.test', 'Switch One');
    const second = await sandboxBusiness(t.sandboxUrl, 'Switch Two');
    await connect(user.accessToken, {
      payload: {
        code: second.code,
        account_data: { waba_id: second.waba_id, phone_number_id: second.phone_number_id },
      },
    });
    const names = async (headers: Record<string, string>) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/meta/phone/whatsapp/',
          headers: { ...bearer(user.accessToken), ...headers },
        })
      )
        .json()
        .data.map((n: { verified_name: string }) => n.verified_name);
    expect(await names({})).toEqual(['Switch One']);
    expect(await names({ 'x-waba-id': second.waba_id })).toEqual(['Switch Two']);
  });

  it('answers 403 naming X-WABA-ID for an unknown account and 401 without a token', async () => {
    const user = await signedInUser(t, 'unknown-waba@acme.test');
    const response = await t.app.inject({
      method: 'GET',
      url: '/meta/phone/whatsapp/',
      headers: { ...bearer(user.accessToken), 'x-waba-id': '999999999999999' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().errors[0].field).toBe('X-WABA-ID');
    expect((await t.app.inject({ method: 'GET', url: '/meta/phone/whatsapp/' })).statusCode).toBe(401);
  });

  it('gives user B 403 with user A’s X-WABA-ID on every business route', async () => {
    const alice = await signedInUser(t, 'alice-x@acme.test');
    const bob = await signedInUser(t, 'bob-x@acme.test');
    expect(t.app.businessRoutes.length).toBeGreaterThan(0);
    for (const route of t.app.businessRoutes) {
      const url = route.url.replace(/:(\w+)/g, '1');
      const response = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: { ...bearer(bob.accessToken), 'x-waba-id': alice.business.waba_id },
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect({ route: `${route.method} ${route.url}`, status: response.statusCode }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 403,
      });
    }
  });
});

describe('GET /api/auth/signup-config/', () => {
  it('points the web at the sandbox’s SDK and trusts only the sandbox’s origin', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/signup-config/' });
    expect(response.json()).toEqual({
      sdk_url: `${t.sandboxUrl}/sdk.js`,
      app_id: t.config.META_APP_ID,
      config_id: t.config.META_CONFIG_ID,
      graph_version: 'v18.0',
      trusted_origins: [new URL(t.sandboxUrl).origin],
      sandbox: true,
    });
  });
});
