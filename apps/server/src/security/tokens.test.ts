import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { InvalidTokenError, TokenIssuer } from './tokens';

const issuer = new TokenIssuer('x'.repeat(32), 900, 3600);

describe('TokenIssuer', () => {
  it('issues access tokens carrying user_id, email and the session family', async () => {
    const token = await issuer.signAccess({ user_id: 7, email: 'a@b.co', sid: 'fam' });
    expect(await issuer.verifyAccess(token)).toEqual({ user_id: 7, email: 'a@b.co', sid: 'fam' });
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('issues refresh tokens carrying exp, jti and family', async () => {
    const { token, jti } = await issuer.signRefresh(7, 'fam');
    const claims = await issuer.verifyRefresh(token);
    expect(claims).toMatchObject({ user_id: 7, family: 'fam', jti });
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it('never accepts one kind of token as the other', async () => {
    const access = await issuer.signAccess({ user_id: 7, email: 'a@b.co', sid: 'fam' });
    const { token: refresh } = await issuer.signRefresh(7, 'fam');
    await expect(issuer.verifyRefresh(access)).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(issuer.verifyAccess(refresh)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('rejects a token signed with another secret, and an expired one', async () => {
    const other = new TokenIssuer('y'.repeat(32), 900, 3600);
    const foreign = await other.signAccess({ user_id: 7, email: 'a@b.co', sid: 'fam' });
    await expect(issuer.verifyAccess(foreign)).rejects.toBeInstanceOf(InvalidTokenError);
    const shortLived = new TokenIssuer('x'.repeat(32), -10, 3600);
    const expired = await shortLived.signAccess({ user_id: 7, email: 'a@b.co', sid: 'fam' });
    await expect(issuer.verifyAccess(expired)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
