import { decodeJwt, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { login, signedInUser } from '../features/auth/auth-test-helpers';
import { CLOCK_TOLERANCE_SECONDS } from '../security/tokens';

/**
 * Over HTTP: forged and tampered tokens get the API's 401 on a business route, and a
 * refresh token presented twice ends its whole session (the rotated access token and refresh token too).
 */

const BUSINESS_ROUTE = '/recipient/tags/';
const INVALID_ACCESS = 'The access token is invalid or expired.';
const INVALID_REFRESH = 'Invalid or expired refresh token';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let otherUserId: number;
let key: Uint8Array;
const now = () => Math.floor(Date.now() / 1000);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  t = await startTestApp();
  key = new TextEncoder().encode(t.config.JWT_SECRET!);
  owner = await signedInUser(t, 'tokens-owner@acme.test', 'Token Owner Ltd');
  const other = await signedInUser(t, 'tokens-other@acme.test', 'Token Other Ltd');
  otherUserId = decodeJwt(other.accessToken).user_id as number;
});
afterAll(() => t?.close());

function callBusinessRoute(token: string) {
  return t.app.inject({
    method: 'GET',
    url: BUSINESS_ROUTE,
    headers: { authorization: `Bearer ${token}` },
  });
}

const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/login/refresh/', payload: { refresh: token } });

/** The owner's real access claims, changed by `change`, signed again with the server's own key. */
function resigned(change: (claims: JWTPayload) => void, signingKey = key, alg = 'HS256') {
  const claims = { ...decodeJwt(owner.accessToken) };
  change(claims);
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(signingKey);
}

function expect401(response: { statusCode: number; json(): unknown }, message: string, field: string) {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toMatchObject({ detail: message, errors: [{ field, message }] });
}

describe('tampered access tokens on a business route', () => {
  it('accepts the real token (the control)', async () => {
    expect((await callBusinessRoute(owner.accessToken)).statusCode).toBe(200);
    expect((await callBusinessRoute(await resigned(() => {}))).statusCode).toBe(200);
  });

  const forgeries: Array<[string, () => Promise<string> | string]> = [
    [
      'alg none (no signature)',
      () => `${base64url({ alg: 'none' })}.${base64url(decodeJwt(owner.accessToken))}.`,
    ],
    ['signed with a wrong key', () => resigned(() => {}, new TextEncoder().encode('w'.repeat(48)))],
    ['signed with HS512 under the same secret', () => resigned(() => {}, key, 'HS512')],
    ['expired', () => resigned((c) => (c.exp = now() - CLOCK_TOLERANCE_SECONDS - 5))],
    [
      "altered claims (another user's user_id, the signature kept)",
      () => {
        const [header, , signature] = owner.accessToken.split('.');
        const claims = { ...decodeJwt(owner.accessToken), user_id: otherUserId };
        return `${header}.${base64url(claims)}.${signature}`;
      },
    ],
    ['without exp', () => resigned((c) => delete c.exp)],
    ['without iat', () => resigned((c) => delete c.iat)],
    ['with iat in the future', () => resigned((c) => (c.iat = now() + CLOCK_TOLERANCE_SECONDS + 60))],
    ['with an unknown typ', () => resigned((c) => (c.typ = 'admin'))],
    ['from another issuer', () => resigned((c) => (c.iss = 'elsewhere'))],
    ['a refresh token used as an access token', () => owner.refreshToken],
  ];

  it.each(forgeries)('refuses a token %s with 401', async (_name, forge) => {
    expect401(await callBusinessRoute(await forge()), INVALID_ACCESS, 'authorization');
  });
});

describe('refresh tokens', () => {
  it('refuses an access token presented as a refresh token', async () => {
    expect401(await refresh(owner.accessToken), INVALID_REFRESH, 'refresh');
  });

  it('refuses a refresh token without exp, or signed with a wrong key', async () => {
    const claims = { ...decodeJwt(owner.refreshToken) };
    delete claims.exp;
    const withoutExp = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect401(await refresh(withoutExp), INVALID_REFRESH, 'refresh');
    const foreign = await new SignJWT(decodeJwt(owner.refreshToken))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('w'.repeat(48)));
    expect401(await refresh(foreign), INVALID_REFRESH, 'refresh');
  });

  it('a reused refresh token revokes its whole family: the rotated access and refresh tokens stop working', async () => {
    const session = (await login(t.app, 'tokens-owner@acme.test', 'correct horse')).json() as {
      accessToken: string;
      refreshToken: string;
    };
    const rotated = await refresh(session.refreshToken);
    expect(rotated.statusCode).toBe(200);
    const { access, refresh: newest } = rotated.json() as { access: string; refresh: string };
    expect((await callBusinessRoute(access)).statusCode).toBe(200);

    // A thief replays the first refresh token: refused, and the session it belongs to ends.
    expect401(
      await refresh(session.refreshToken),
      'Refresh token already used; the session has been revoked. Sign in again.',
      'refresh',
    );
    expect401(await callBusinessRoute(access), 'This session has ended. Sign in again.', 'authorization');
    expect401(
      await callBusinessRoute(session.accessToken),
      'This session has ended. Sign in again.',
      'authorization',
    );
    expect((await refresh(newest)).statusCode).toBe(401);

    // Other sessions of the same user are untouched.
    expect((await callBusinessRoute(owner.accessToken)).statusCode).toBe(200);
  });
});
