import { decodeJwt, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { CLOCK_TOLERANCE_SECONDS, InvalidTokenError, TokenIssuer } from './tokens';

const SECRET = 'x'.repeat(32);
const KEY = new TextEncoder().encode(SECRET);
const ACCESS_TTL = 900;
const REFRESH_TTL = 3600;
const issuer = new TokenIssuer(SECRET, ACCESS_TTL, REFRESH_TTL);
const now = () => Math.floor(Date.now() / 1000);

const accessClaims = { user_id: 7, email: 'a@b.co', sid: 'fam' };
const refreshClaims = { user_id: 7, family: 'fam', jti: 'jti-1' };

/** A token with exactly the given claims and header, signed with our key unless told otherwise. */
function forge(
  claims: JWTPayload,
  { alg = 'HS256', key = KEY }: { alg?: string; key?: Parameters<SignJWT['sign']>[0] } = {},
) {
  return new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
}

/** A well-formed access (or refresh) claim set issued now, which `change` then spoils. */
function claimsOf(kind: 'access' | 'refresh', change: (claims: JWTPayload) => void = () => {}) {
  const claims: JWTPayload = {
    ...(kind === 'access' ? accessClaims : refreshClaims),
    typ: kind,
    iss: 'herald',
    iat: now(),
    exp: now() + (kind === 'access' ? ACCESS_TTL : REFRESH_TTL),
  };
  change(claims);
  return claims;
}

function verify(kind: 'access' | 'refresh', token: string) {
  return kind === 'access' ? issuer.verifyAccess(token) : issuer.verifyRefresh(token);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('TokenIssuer', () => {
  it('issues access tokens carrying user_id, email and the session family', async () => {
    const token = await issuer.signAccess(accessClaims);
    expect(await issuer.verifyAccess(token)).toEqual(accessClaims);
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(ACCESS_TTL);
  });

  it('issues refresh tokens carrying exp, jti and family', async () => {
    const { token, jti } = await issuer.signRefresh(7, 'fam');
    const claims = await issuer.verifyRefresh(token);
    expect(claims).toMatchObject({ user_id: 7, family: 'fam', jti });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it('never accepts one kind of token as the other', async () => {
    const access = await issuer.signAccess(accessClaims);
    const { token: refresh } = await issuer.signRefresh(7, 'fam');
    await expect(issuer.verifyRefresh(access)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(issuer.verifyAccess(refresh)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('rejects a token signed with another secret, and an expired one', async () => {
    const other = new TokenIssuer('y'.repeat(32), ACCESS_TTL, REFRESH_TTL);
    const foreign = await other.signAccess(accessClaims);
    await expect(issuer.verifyAccess(foreign)).rejects.toBeInstanceOf(InvalidTokenError);
    const expired = await forge(claimsOf('access', (c) => (c.exp = now() - 60)));
    await expect(issuer.verifyAccess(expired)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('accepts a hand-made token with every required claim (the control for the refusals below)', async () => {
    expect(await issuer.verifyAccess(await forge(claimsOf('access')))).toEqual(accessClaims);
    expect(await issuer.verifyRefresh(await forge(claimsOf('refresh')))).toMatchObject(refreshClaims);
  });

  describe.each(['access', 'refresh'] as const)('refuses a %s token', (kind) => {
    const refusals: Array<[string, (claims: JWTPayload) => void]> = [
      ['without exp', (c) => delete c.exp],
      ['without iat', (c) => delete c.iat],
      ['without typ', (c) => delete c.typ],
      ['with an unknown typ', (c) => (c.typ = 'admin')],
      ['from another issuer', (c) => (c.iss = 'someone-else')],
      ['without an issuer', (c) => delete c.iss],
      ['expired', (c) => (c.exp = now() - CLOCK_TOLERANCE_SECONDS - 1)],
      [
        'issued in the future beyond the clock tolerance',
        (c) => (c.iat = now() + CLOCK_TOLERANCE_SECONDS + 5),
      ],
      [
        'older than its lifetime even though its exp is far out',
        (c) => {
          c.iat = now() - (kind === 'access' ? ACCESS_TTL : REFRESH_TTL) - CLOCK_TOLERANCE_SECONDS - 5;
          c.exp = now() + 86_400;
        },
      ],
      ['with a non-numeric user_id', (c) => (c.user_id = '7')],
    ];
    it.each(refusals)('%s', async (_name, spoil) => {
      await expect(verify(kind, await forge(claimsOf(kind, spoil)))).rejects.toBeInstanceOf(
        InvalidTokenError,
      );
    });

    it('with alg none', async () => {
      const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claimsOf(kind))}.`;
      await expect(verify(kind, token)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('signed with another HMAC algorithm (HS512) under the same secret', async () => {
      const token = await forge(claimsOf(kind), {
        alg: 'HS512',
        key: new TextEncoder().encode(SECRET.repeat(2)),
      });
      await expect(verify(kind, token)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('signed with an asymmetric algorithm (RS256)', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const token = await forge(claimsOf(kind), { alg: 'RS256', key: privateKey });
      await expect(verify(kind, token)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('signed with a wrong key', async () => {
      const token = await forge(claimsOf(kind), { key: new TextEncoder().encode('z'.repeat(32)) });
      await expect(verify(kind, token)).rejects.toBeInstanceOf(InvalidTokenError);
    });

    it('whose claims were altered after signing (the signature kept)', async () => {
      const [header, , signature] = (await forge(claimsOf(kind))).split('.');
      const altered = `${header}.${base64url(claimsOf(kind, (c) => (c.user_id = 8)))}.${signature}`;
      await expect(verify(kind, altered)).rejects.toBeInstanceOf(InvalidTokenError);
    });
  });

  it(`tolerates up to ${CLOCK_TOLERANCE_SECONDS} s of clock skew on iat and exp`, async () => {
    const aheadClock = await forge(claimsOf('access', (c) => (c.iat = now() + CLOCK_TOLERANCE_SECONDS - 5)));
    expect(await issuer.verifyAccess(aheadClock)).toEqual(accessClaims);
    const justExpired = await forge(claimsOf('access', (c) => (c.exp = now() - CLOCK_TOLERANCE_SECONDS + 5)));
    expect(await issuer.verifyAccess(justExpired)).toEqual(accessClaims);
  });
});

describe('lifetime given at issue', () => {
  it('refuses an access token whose exp is ten years after its iat, though it is young', async () => {
    const token = await forge(claimsOf('access', (c) => (c.exp = now() + 10 * 365 * 24 * 3600)));
    await expect(issuer.verifyAccess(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('accepts the lifetime Herald gives, and a device token for the user it names', async () => {
    await expect(issuer.verifyAccess(await issuer.signAccess(accessClaims))).resolves.toEqual(accessClaims);
    const device = await issuer.signDevice(7);
    await expect(issuer.verifyDevice(device.token)).resolves.toMatchObject({ user_id: 7 });
    // A device token is no access token, and the other way round.
    await expect(issuer.verifyAccess(device.token)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(issuer.verifyDevice(await issuer.signAccess(accessClaims))).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
  });
});
