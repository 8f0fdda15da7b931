import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'herald';

export interface AccessClaims {
  user_id: number;
  email: string;
  /** The refresh-token family this session belongs to, so logout can revoke it. */
  sid: string;
}

export interface RefreshClaims {
  user_id: number;
  jti: string;
  family: string;
  exp: number;
}

export class InvalidTokenError extends Error {}

/** Short-lived access JWTs and rotating refresh JWTs, both HS256 with one secret, told apart by `typ`. */
export class TokenIssuer {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly accessTtlSeconds: number,
    private readonly refreshTtlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ...claims, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${this.accessTtlSeconds}s`)
      .sign(this.key);
  }

  async signRefresh(
    userId: number,
    family: string,
  ): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const expiresAt = new Date(Date.now() + this.refreshTtlSeconds * 1000);
    const token = await new SignJWT({ user_id: userId, family, typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, jti, expiresAt };
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const payload = await this.verify(token, 'access');
    if (
      typeof payload.user_id !== 'number' ||
      typeof payload.email !== 'string' ||
      typeof payload.sid !== 'string'
    ) {
      throw new InvalidTokenError('malformed access token');
    }
    return { user_id: payload.user_id, email: payload.email, sid: payload.sid };
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const payload = await this.verify(token, 'refresh');
    if (
      typeof payload.user_id !== 'number' ||
      typeof payload.family !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload.exp !== 'number'
    ) {
      throw new InvalidTokenError('malformed refresh token');
    }
    return { user_id: payload.user_id, family: payload.family, jti: payload.jti, exp: payload.exp };
  }

  private async verify(token: string, typ: 'access' | 'refresh') {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      if (payload.typ !== typ) throw new InvalidTokenError(`not an ${typ} token`);
      return payload;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      throw new InvalidTokenError((error as Error).message);
    }
  }
}
