import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { LOGIN_POLICY, PIN_POLICY } from './attempt-limiter';
import { login, sandboxBusiness, signedInUser, signUp } from './auth-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/login/refresh/', payload: { refresh: token } });
const wabas = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/wabas/', headers: bearer(token) });
const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

describe('POST /api/auth/login/', () => {
  it('answers tokens and the accounts with their display names; e-mail is case-insensitive', async () => {
    const business = await sandboxBusiness(t.sandboxUrl, 'Login Bakery');
    await signUp(t.app, business, { email: 'login@acme.test' });
    const response = await login(t.app, ' LOGIN@acme.test ', 'correct horse');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.wabas).toEqual([
      {
        waba_id: business.waba_id,
        details: [
          expect.objectContaining({
            display_name: 'Login Bakery',
            phone_number_id: business.phone_number_id,
          }),
        ],
      },
    ]);
    expect(decode(body.accessToken)).toMatchObject({ email: 'login@acme.test', user_id: expect.any(Number) });
    expect(decode(body.refreshToken).exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 401 "Invalid email or password" for a wrong password or an unknown e-mail', async () => {
    for (const [username, password] of [
      ['login@acme.test', 'wrong password'],
      ['nobody@acme.test', 'correct horse'],
    ]) {
      const response = await login(t.app, username!, password!, '10.0.0.9');
      expect(response.statusCode).toBe(401);
      expect(response.json().detail).toBe('Invalid email or password');
    }
  });

  it('answers 400 naming the missing field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { username: 'a@b.co' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('password');
  });

  it('locks an e-mail out from one address after 10 failures in 15 minutes, with Retry-After, even for the right password', async () => {
    await signedInUser(t, 'locked@acme.test');
    for (let i = 0; i < 10; i += 1) {
      expect((await login(t.app, 'locked@acme.test', `wrong ${i}`, '10.1.0.1')).statusCode).toBe(401);
    }
    const blocked = await login(t.app, 'locked@acme.test', 'correct horse', '10.1.0.1');
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // The owner elsewhere is not locked out by failures from that address.
    expect((await login(t.app, 'locked@acme.test', 'correct horse', '10.1.1.1')).statusCode).toBe(200);
  });

  it(`locks an address out after ${LOGIN_POLICY.limits.address} failures across e-mails`, async () => {
    const limit = LOGIN_POLICY.limits.address!;
    for (let i = 0; i < limit; i += 1) {
      expect((await login(t.app, `guess${i}@acme.test`, 'x', '10.2.0.1')).statusCode).toBe(401);
    }
    expect((await login(t.app, 'someone@acme.test', 'x', '10.2.0.1')).statusCode).toBe(429);
    expect((await login(t.app, 'someone@acme.test', 'x', '10.2.0.2')).statusCode).toBe(401);
  });
});

describe('POST /api/login/refresh/', () => {
  it('rotates: a new pair each time, and the old refresh token no longer works', async () => {
    const user = await signedInUser(t, 'rotate@acme.test');
    const first = await refresh(user.refreshToken);
    expect(first.statusCode).toBe(200);
    const { access, refresh: next } = first.json();
    expect(next).not.toBe(user.refreshToken);
    expect((await wabas(access)).statusCode).toBe(200);
    expect((await refresh(next)).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token is presented again', async () => {
    const user = await signedInUser(t, 'reuse@acme.test');
    const rotated = (await refresh(user.refreshToken)).json();
    const replay = await refresh(user.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors[0].field).toBe('refresh');
    // The legitimate holder's newer tokens die with the family.
    expect((await refresh(rotated.refresh)).statusCode).toBe(401);
    expect((await wabas(rotated.access)).statusCode).toBe(401);
  });

  it('answers 401 for a forged or malformed token and 400 without one', async () => {
    expect((await refresh('not.a.jwt')).statusCode).toBe(401);
    const empty = await t.app.inject({ method: 'POST', url: '/api/login/refresh/', payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].field).toBe('refresh');
  });

  it('lets only one of two concurrent uses of one refresh token win', async () => {
    const user = await signedInUser(t, 'race@acme.test');
    const results = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });
});

describe('POST /api/auth/logout/', () => {
  it('ends the session: its access and refresh tokens stop working', async () => {
    const user = await signedInUser(t, 'logout@acme.test');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout/',
      headers: bearer(user.accessToken),
    });
    expect(response.statusCode).toBe(200);
    expect((await wabas(user.accessToken)).statusCode).toBe(401);
    expect((await refresh(user.refreshToken)).statusCode).toBe(401);
  });

  it('leaves the user’s other sessions alone', async () => {
    const user = await signedInUser(t, 'two-devices@acme.test');
    const other = (await login(t.app, 'two-devices@acme.test', 'correct horse')).json();
    await t.app.inject({ method: 'POST', url: '/api/auth/logout/', headers: bearer(user.accessToken) });
    expect((await wabas(other.accessToken)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout/' });
    expect(response.statusCode).toBe(401);
    expect(response.json().errors[0].field).toBe('authorization');
  });
});

describe('POST /api/auth/password/reset/', () => {
  const reset = (payload: Record<string, string>, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/auth/password/reset/', payload, remoteAddress });

  it('sets a new password with the right PIN and ends every session', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const pin = (await signUp(t.app, business, { email: 'forgot@acme.test', pin: '432109' })).json().data.pin;
    const session = (await login(t.app, 'forgot@acme.test', 'correct horse')).json();
    const response = await reset({ email: 'forgot@acme.test', pin, new_password: 'battery staple' });
    expect(response.statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
    expect((await login(t.app, 'forgot@acme.test', 'correct horse')).statusCode).toBe(401);
    expect((await login(t.app, 'forgot@acme.test', 'battery staple')).statusCode).toBe(200);
  });

  it('gives one generic 400 for a wrong PIN or an unknown e-mail', async () => {
    await signedInUser(t, 'generic@acme.test');
    const wrongPin = await reset({
      email: 'generic@acme.test',
      pin: '000000',
      new_password: 'battery staple',
    });
    const unknown = await reset({
      email: 'nobody-here@acme.test',
      pin: '000000',
      new_password: 'battery staple',
    });
    expect(wrongPin.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(400);
    expect(wrongPin.json().detail).toBe(unknown.json().detail);
  });

  it('checks the new password and names the field', async () => {
    const response = await reset({ email: 'generic@acme.test', pin: '000000', new_password: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      field: 'new_password',
      message: 'Password must be at least 8 characters long.',
    });
  });

  it(`is rate-limited more strictly than sign-in: ${PIN_POLICY.limits.account_address} failures per e-mail and address`, async () => {
    for (let i = 0; i < PIN_POLICY.limits.account_address!; i += 1) {
      const failed = await reset(
        { email: 'brute@acme.test', pin: String(100000 + i), new_password: 'battery staple' },
        '10.3.0.1',
      );
      expect(failed.statusCode).toBe(400);
    }
    const blocked = await reset(
      { email: 'brute@acme.test', pin: '123456', new_password: 'battery staple' },
      '10.3.0.1',
    );
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
