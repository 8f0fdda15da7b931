import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { LOGIN_POLICY, PIN_POLICY } from './attempt-limiter';
import { login, sandboxBusiness, signedInUser, signUp } from './auth-test-helpers';
import { DEVICE_COOKIE } from './device-cookie';

/**
 * The ways around sign-in's guards an attacker's test found: lockouts a stranger could impose on the owner
 * (PIN reset, sign-in), over-long strings reaching Meta, and access tokens Herald never issued.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOGIN = LOGIN_POLICY.limits as { account_address: number; account: number };
const PIN = PIN_POLICY.limits as { account_address: number; address: number; account: number };

function reset(email: string, pin: string, remoteAddress: string, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/password/reset/',
    payload: { email, pin, new_password: 'battery staple' },
    remoteAddress,
    headers: cookie ? { cookie } : {},
  });
}

function loginWithCookie(username: string, password: string, remoteAddress: string, cookie: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { username, password },
    remoteAddress,
    headers: { cookie },
  });
}

/** The device cookie a sign-in answered, as a browser sends it back (`name=value`), and its attributes. */
function deviceCookie(response: { headers: Record<string, unknown> }) {
  const header = String(response.headers['set-cookie'] ?? '');
  expect(header.startsWith(`${DEVICE_COOKIE}=`)).toBe(true);
  return { cookie: header.split(';')[0]!, attributes: header.split(';').map((part) => part.trim()) };
}

/** Signs a user up and answers the PIN the sign-up showed them. */
async function userWithPin(email: string, business: string): Promise<string> {
  const signup = await signUp(t.app, await sandboxBusiness(t.sandboxUrl, business), { email });
  expect(signup.statusCode).toBe(200);
  return (signup.json() as { data: { pin: string } }).data.pin;
}

describe('PIN reset: limited per account and per address', () => {
  it("a stranger's wrong PINs from one address leave the owner's right PIN from another address working", async () => {
    const pin = await userWithPin('pin-owner@acme.test', 'Pin Owner Ltd');
    for (let i = 0; i < PIN.account_address; i += 1) {
      expect((await reset('pin-owner@acme.test', String(300000 + i), '203.0.113.90')).statusCode).toBe(400);
    }
    expect((await reset('pin-owner@acme.test', '300999', '203.0.113.90')).statusCode).toBe(429);
    expect((await reset('pin-owner@acme.test', pin, '198.51.100.90')).statusCode).toBe(200);
  });

  it('a spread run stops at the per-e-mail ceiling, and the owner’s trusted browser still resets', async () => {
    const pin = await userWithPin('pin-spread@acme.test', 'Pin Spread Ltd');
    const trusted = deviceCookie(await login(t.app, 'pin-spread@acme.test', 'correct horse', '192.0.2.91'));
    const addresses = Array.from({ length: 6 }, (_, i) => `198.51.100.${100 + i}`);
    const guesses = await Promise.all(
      addresses.flatMap((address, a) =>
        Array.from({ length: PIN.account_address }, (_, i) =>
          reset('pin-spread@acme.test', String(400000 + a * 10 + i), address),
        ),
      ),
    );
    expect(guesses.filter((r) => r.statusCode === 400)).toHaveLength(PIN.account);
    expect((await reset('pin-spread@acme.test', pin, '198.51.100.200')).statusCode).toBe(429);
    expect((await reset('pin-spread@acme.test', pin, '198.51.100.201', trusted.cookie)).statusCode).toBe(200);
  });
});

describe('sign-in: device cookies', () => {
  it('gives a browser that signed in a long-lived HttpOnly, SameSite=Strict cookie for the auth calls', async () => {
    await signedInUser(t, 'cookie@acme.test', 'Cookie Ltd');
    const { attributes } = deviceCookie(await login(t.app, 'cookie@acme.test', 'correct horse'));
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/api/auth/']));
    const maxAge = Number(attributes.find((a) => a.startsWith('Max-Age='))!.slice('Max-Age='.length));
    expect(maxAge).toBeGreaterThanOrEqual(90 * 24 * 3600);
    // Over HTTP (a local run) it cannot be Secure, or the browser would drop it; over HTTPS it is.
    expect(attributes).not.toContain('Secure');
    const wrong = await login(t.app, 'cookie@acme.test', 'wrong', '192.0.2.92');
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('ten addresses × ten guesses lock untrusted clients out, never the owner’s trusted browser', async () => {
    await signedInUser(t, 'lockout@acme.test', 'Lockout Ltd');
    const trusted = deviceCookie(await login(t.app, 'lockout@acme.test', 'correct horse', '192.0.2.93'));
    const addresses = Array.from(
      { length: LOGIN.account / LOGIN.account_address },
      (_, i) => `203.0.113.${i + 1}`,
    );
    const guesses = await Promise.all(
      addresses.flatMap((address) =>
        Array.from({ length: LOGIN.account_address }, (_, i) =>
          login(t.app, 'lockout@acme.test', `guess ${i}`, address),
        ),
      ),
    );
    expect(guesses.every((r) => r.statusCode === 401)).toBe(true);
    // An untrusted client, anywhere, is now held up for the window...
    expect((await login(t.app, 'lockout@acme.test', 'correct horse', '192.0.2.94')).statusCode).toBe(429);
    // ...but the browser that signed in before is not, whatever address it comes from.
    const owner = await loginWithCookie('lockout@acme.test', 'correct horse', '192.0.2.95', trusted.cookie);
    expect(owner.statusCode).toBe(200);
    deviceCookie(owner);
  });

  it("gives no allowance to another user's cookie or a forged one, and limits a trusted browser on its own", async () => {
    await signedInUser(t, 'cookie-a@acme.test', 'Cookie A Ltd');
    await signedInUser(t, 'cookie-b@acme.test', 'Cookie B Ltd');
    const a = deviceCookie(await login(t.app, 'cookie-a@acme.test', 'correct horse', '192.0.2.96'));
    const forged = `${DEVICE_COOKIE}=${await new SignJWT({ user_id: 1, typ: 'device' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('herald')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('x'.repeat(32)))}`;
    for (const cookie of [a.cookie, forged]) {
      const address = cookie === a.cookie ? '192.0.2.97' : '192.0.2.98';
      for (let i = 0; i < LOGIN.account_address; i += 1)
        expect((await loginWithCookie('cookie-b@acme.test', `g${i}`, address, cookie)).statusCode).toBe(401);
      expect((await loginWithCookie('cookie-b@acme.test', 'x', address, cookie)).statusCode).toBe(429);
    }
    // A's own browser guessing at A: its own 10, then 429 for that browser only.
    for (let i = 0; i < 10; i += 1)
      expect((await loginWithCookie('cookie-a@acme.test', `g${i}`, '192.0.2.99', a.cookie)).statusCode).toBe(
        401,
      );
    expect(
      (await loginWithCookie('cookie-a@acme.test', 'correct horse', '192.0.2.99', a.cookie)).statusCode,
    ).toBe(429);
    expect((await login(t.app, 'cookie-a@acme.test', 'correct horse', '192.0.2.99')).statusCode).toBe(200);
  });
});

describe('string lengths', () => {
  it('answers 400 naming code for a 100,000-character Embedded Signup code, before Meta is asked', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/facebook/callback/',
      payload: {
        code: 'c'.repeat(100_000),
        waba_id: '123',
        phone_number_id: '456',
        email: 'long-code@acme.test',
        password: 'correct horse',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field)).toContain('code');
  });

  it('answers 400 naming refresh for a 100,000-character refresh token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/refresh/',
      payload: { refresh: 'r'.repeat(100_000) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('refresh');
  });
});

describe('access tokens Herald never issued', () => {
  const key = () => new TextEncoder().encode(t.config.JWT_SECRET!);
  const call = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/wabas/', headers: { authorization: `Bearer ${token}` } });

  it('refuses a well-signed token naming a session that does not exist, or another user’s', async () => {
    const owner = await signedInUser(t, 'sid-owner@acme.test', 'Sid Owner Ltd');
    const other = await signedInUser(t, 'sid-other@acme.test', 'Sid Other Ltd');
    const claims = decodeJwt(owner.accessToken);
    const sign = (sid: string) =>
      new SignJWT({ ...claims, sid }).setProtectedHeader({ alg: 'HS256' }).sign(key());
    expect((await call(await sign(claims.sid as string))).statusCode).toBe(200);
    expect((await call(await sign('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(401);
    expect((await call(await sign('not-a-uuid'))).statusCode).toBe(401);
    expect((await call(await sign(decodeJwt(other.accessToken).sid as string))).statusCode).toBe(401);
  });

  it('refuses a token whose exp is ten years after its iat', async () => {
    const owner = await signedInUser(t, 'exp-owner@acme.test', 'Exp Owner Ltd');
    const claims = decodeJwt(owner.accessToken);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ ...claims, iat: now, exp: now + 10 * 365 * 24 * 3600 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(key());
    const response = await call(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().errors[0].field).toBe('authorization');
  });
});
