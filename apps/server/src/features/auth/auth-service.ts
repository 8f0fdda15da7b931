import { randomUUID } from 'node:crypto';
import type { AccountChangeRequest, LoginResponse, SignupRequest, WabaAccount } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import type { GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import { decoyHash, hashSecret, verifySecret } from '../../security/password-hasher';
import type { SecretBox } from '../../security/secret-box';
import { InvalidTokenError, type TokenIssuer } from '../../security/tokens';
import { findOwnedWaba, listWabaAccounts } from '../accounts/index';
import { type AccountChangeOutcome, changeAccount } from './account-change';
import type { AccountMailer } from './account-mailer';
import {
  AttemptLimiter,
  LOGIN_DEVICE_POLICY,
  LOGIN_POLICY,
  PIN_DEVICE_POLICY,
  PIN_POLICY,
} from './attempt-limiter';
import { trustedDevice } from './device-cookie';
import { insertRefreshToken, revokeAllForUser, revokeFamily, useRefreshToken } from './refresh-tokens-repo';
import { SignupService } from './signup-service';
import { findUserByEmail, findUserById, updatePassword } from './users-repo';

export const INVALID_LOGIN = 'Invalid email or password';
export const INVALID_RESET = 'Invalid email or PIN';

/** Who is asking: the client's address and the device cookie its browser sent, if any. */
export interface Client {
  ip: string;
  deviceToken?: string;
}

type DeviceCookie = Awaited<ReturnType<TokenIssuer['signDevice']>>;

export interface AuthServiceDeps {
  pool: Pool;
  graph: GraphClient;
  tokens: TokenIssuer;
  secrets: SecretBox;
}

/** Sign-in, token rotation, logout and password reset; sign-up and linking accounts go to SignupService. */
export class AuthService {
  private readonly limiter: AttemptLimiter;
  private readonly signups: SignupService;

  constructor(private readonly deps: AuthServiceDeps) {
    this.limiter = new AttemptLimiter(deps.pool);
    this.signups = new SignupService({ ...deps, limiter: this.limiter });
  }

  /** Creates the user and links their first account (POST /api/auth/facebook/callback/). */
  signUp(request: SignupRequest, address: string): Promise<{ pin: string }> {
    return this.signups.signUp(request, address);
  }

  /** Links a further account to a signed-in user (PUT /api/auth/facebook/callback/). */
  connectAccount(
    userId: number,
    request: { code: string; wabaId: string; phoneNumberId: string; businessId?: string },
  ): Promise<void> {
    return this.signups.connectAccount(userId, request);
  }

  /**
   * Checks the password only after reserving the attempt, so parallel guesses cannot pass the limit; a right
   * password gives the reservation back, so correct sign-ins never count as failures. A browser whose device
   * cookie names this user is counted on its own (LOGIN_DEVICE_POLICY), every other client under LOGIN_POLICY;
   * a successful sign-in answers a fresh device cookie for the browser.
   */
  async login(
    username: string,
    password: string,
    client: Client,
  ): Promise<{ session: LoginResponse; device: DeviceCookie }> {
    const { pool, tokens } = this.deps;
    const email = username.trim().toLowerCase();
    const user = await findUserByEmail(pool, email);
    const device = await trustedDevice(tokens, client.deviceToken, user?.id);
    const attempt = await this.limiter.reserve(
      device ? LOGIN_DEVICE_POLICY : LOGIN_POLICY,
      device ? { device, address: client.ip } : { account: email, address: client.ip },
    );
    // Verify against a decoy when the e-mail is unknown, so timing does not reveal which e-mails exist.
    const valid = await verifySecret(user?.password_hash ?? (await decoyHash()), password);
    if (!user || !valid) throw new HttpError(401, INVALID_LOGIN);
    await attempt.release();
    const session = await this.startSession(user.id, user.email, randomUUID());
    return {
      session: {
        accessToken: session.access,
        refreshToken: session.refresh,
        wabas: await listWabaAccounts(pool, user.id),
      },
      device: await tokens.signDevice(user.id),
    };
  }

  /** Rotates a refresh token. Presenting one that was already used revokes its whole family. */
  async refresh(refreshToken: string): Promise<{ access: string; refresh: string }> {
    const { pool, tokens } = this.deps;
    let claims;
    try {
      claims = await tokens.verifyRefresh(refreshToken);
    } catch (error) {
      if (error instanceof InvalidTokenError)
        throw HttpError.field(401, 'refresh', 'Invalid or expired refresh token');
      throw error;
    }
    const use = await useRefreshToken(pool, claims.jti);
    if (use.outcome === 'reused') {
      await revokeFamily(pool, use.family);
      throw HttpError.field(
        401,
        'refresh',
        'Refresh token already used; the session has been revoked. Sign in again.',
      );
    }
    if (use.outcome === 'invalid') throw HttpError.field(401, 'refresh', 'Invalid or expired refresh token');
    const user = await findUserById(pool, use.userId);
    if (!user) throw HttpError.field(401, 'refresh', 'Invalid or expired refresh token');
    return this.startSession(user.id, user.email, use.family);
  }

  async logout(family: string): Promise<void> {
    await revokeFamily(this.deps.pool, family);
  }

  /**
   * Sets a new password when the PIN matches (reserved first like a sign-in: PIN_POLICY, or PIN_DEVICE_POLICY
   * from the user's trusted browser); every session of the user ends. PINs of 4 or 5 digits from before 6
   * became the rule still work here.
   */
  async resetPassword(email: string, pin: string, newPassword: string, client: Client): Promise<void> {
    const { pool, tokens } = this.deps;
    const user = await findUserByEmail(pool, email);
    const device = await trustedDevice(tokens, client.deviceToken, user?.id);
    const attempt = await this.limiter.reserve(
      device ? PIN_DEVICE_POLICY : PIN_POLICY,
      device ? { device, address: client.ip } : { account: email, address: client.ip },
    );
    const valid = await verifySecret(user?.pin_hash ?? (await decoyHash()), pin);
    if (!user || !valid) throw new HttpError(400, INVALID_RESET);
    await attempt.release();
    await updatePassword(pool, user.id, await hashSecret(newPassword));
    await revokeAllForUser(pool, user.id);
  }

  /** Account Settings: a new e-mail (confirmed by a mailed code) and/or password; other sessions end. */
  changeAccount(
    session: { userId: number; family: string },
    change: AccountChangeRequest,
    ip: string,
    mailer: AccountMailer | null,
  ): Promise<AccountChangeOutcome> {
    const { pool, tokens } = this.deps;
    return changeAccount({ pool, tokens, limiter: this.limiter, mailer }, session, change, ip);
  }

  listWabas(userId: number): Promise<WabaAccount[]> {
    return listWabaAccounts(this.deps.pool, userId);
  }

  /** Whether the user owns the account (the X-WABA-ID check), or their first account when none is named. */
  findOwnedWaba(userId: number, wabaId?: string) {
    return findOwnedWaba(this.deps.pool, userId, wabaId);
  }

  private async startSession(userId: number, email: string, family: string) {
    const { pool, tokens } = this.deps;
    const refresh = await tokens.signRefresh(userId, family);
    await insertRefreshToken(pool, { jti: refresh.jti, family, userId, expiresAt: refresh.expiresAt });
    const access = await tokens.signAccess({ user_id: userId, email, sid: family });
    return { access, refresh: refresh.token };
  }
}
