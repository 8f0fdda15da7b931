import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'herald';
const ALGORITHM = 'HS256';
/**
 * Seconds by which another API process's clock may run ahead of ours: a token issued "in the future" by up to
 * this much is still accepted (and an expired one still refused after at most this much). Beyond it, refused.
 */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** How long a browser stays trusted after its last sign-in (decision 063). */
export const DEVICE_TTL_SECONDS = 365 * 24 * 3600;

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

export interface DeviceClaims {
  user_id: number;
  /** The device's own key: its attempt counter is kept under it. */
  jti: string;
}

export class InvalidTokenError extends Error {}

type Kind = 'access' | 'refresh' | 'device';

/**
 * Short-lived access JWTs and rotating refresh JWTs, both HS256 with one secret, told apart by the `typ` claim.
 * A token is accepted only when it is HS256, signed with our key, issued by Herald, carries `exp`, `iat` and the
 * expected `typ`, is not expired, was not issued in the future, is no older than its kind's lifetime and
 * was not given a longer one (`exp - iat`), each within CLOCK_TOLERANCE_SECONDS — decision 007.
 */
export class TokenIssuer {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly accessTtlSeconds: number,
    private readonly refreshTtlSeconds: number,
    private readonly deviceTtlSeconds = DEVICE_TTL_SECONDS,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A browser that signed in as the user (decision 063): it keeps its own allowance of sign-in attempts. */
  async signDevice(userId: number): Promise<{ token: string; maxAgeSeconds: number }> {
    const token = await new SignJWT({ user_id: userId, typ: 'device' })
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(ISSUER)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.deviceTtlSeconds}s`)
      .sign(this.key);
    return { token, maxAgeSeconds: this.deviceTtlSeconds };
  }

  async verifyDevice(token: string): Promise<DeviceClaims> {
    const payload = await this.verify(token, 'device', this.deviceTtlSeconds);
    if (typeof payload.user_id !== 'number' || typeof payload.jti !== 'string')
      throw new InvalidTokenError('malformed device token');
    return { user_id: payload.user_id, jti: payload.jti };
  }

  /** An HMAC-SHA256 of `message` under the token key, for short codes the server checks without storing. */
  mac(message: string): Buffer {
    return createHmac('sha256', this.key).update(message).digest();
  }

  signAccess(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ...claims, typ: 'access' })
      .setProtectedHeader({ alg: ALGORITHM })
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
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(ISSUER)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, jti, expiresAt };
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const payload = await this.verify(token, 'access', this.accessTtlSeconds);
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
    const payload = await this.verify(token, 'refresh', this.refreshTtlSeconds);
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

  private async verify(token: string, typ: Kind, lifetimeSeconds: number) {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: [ALGORITHM],
        // jose checks `exp` only when present: require it, so a token without one cannot live forever.
        requiredClaims: ['exp', 'iat', 'typ'],
        // Requires `iat`, refuses one in the future, and bounds a token's age by its kind's lifetime even
        // if its `exp` was set further out.
        maxTokenAge: lifetimeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      if (payload.typ !== typ) throw new InvalidTokenError(`not an ${typ} token`);
      // maxTokenAge bounds only the time since `iat`: a token minted with a far `exp` would otherwise pass
      // for a whole lifetime after each fresh `iat`. Herald never issues one longer than its kind's lifetime.
      if (payload.exp! - payload.iat! > lifetimeSeconds + CLOCK_TOLERANCE_SECONDS)
        throw new InvalidTokenError('lifetime longer than allowed');
      return payload;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      throw new InvalidTokenError((error as Error).message);
    }
  }
}
