import { randomUUID } from 'node:crypto';
import type { LoginResponse, SignupRequest, WabaAccount } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import type { GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import { decoyHash, hashSecret, verifySecret } from '../../security/password-hasher';
import { randomPin } from '../../security/random-pin';
import type { SecretBox } from '../../security/secret-box';
import { InvalidTokenError, type TokenIssuer } from '../../security/tokens';
import {
  findOwnedWaba,
  findWabaOwner,
  insertWaba,
  listWabaAccounts,
  upsertPhoneNumbers,
} from '../accounts/accounts-repo';
import { onboardAtCloudApi } from '../accounts/cloud-onboarding';
import { type AttemptKind, recordFailure, retryAfterSeconds } from './attempt-limiter';
import { insertRefreshToken, revokeAllForUser, revokeFamily, useRefreshToken } from './refresh-tokens-repo';
import { findUserByEmail, findUserById, insertUser, updatePassword } from './users-repo';

export const INVALID_LOGIN = 'Invalid email or password';
export const INVALID_RESET = 'Invalid email or PIN';

const alreadyRegistered = () => HttpError.field(409, 'email', 'This email is already registered');
const alreadyLinked = () =>
  HttpError.field(409, 'waba_id', 'This WhatsApp Business Account is already linked to another user');

export interface AuthServiceDeps {
  pool: Pool;
  graph: GraphClient;
  tokens: TokenIssuer;
  secrets: SecretBox;
}

/** Sign-up, sign-in, token rotation, logout, password reset and linking further accounts. */
export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Creates the user and links their first account. Cloud API calls come first (nothing stored yet);
   * then the user, the account and its numbers are written in one transaction.
   */
  async signUp(request: SignupRequest): Promise<{ pin: string }> {
    const { pool, graph, secrets } = this.deps;
    if (await findUserByEmail(pool, request.email)) throw alreadyRegistered();
    if ((await findWabaOwner(pool, request.waba_id)) !== undefined) throw alreadyLinked();

    const userPin = request.pin ?? randomPin(6);
    // Meta's two-step PIN has exactly 6 digits; a shorter user PIN guards the account, a generated one the number.
    const registerPin = userPin.length === 6 ? userPin : randomPin(6);
    const onboarded = await onboardAtCloudApi(graph, {
      code: request.code,
      wabaId: request.waba_id,
      phoneNumberId: request.phone_number_id,
      registerPin,
    });
    const [passwordHash, pinHash] = await Promise.all([hashSecret(request.password), hashSecret(userPin)]);
    try {
      await withTransaction(pool, async (client) => {
        const userId = await insertUser(client, request.email, passwordHash, pinHash);
        const wabaAccountId = await insertWaba(client, {
          wabaId: request.waba_id,
          userId,
          name: onboarded.waba.name,
          businessId: request.account_data?.business_id,
          businessTokenEncrypted: secrets.seal(onboarded.businessToken),
        });
        await upsertPhoneNumbers(
          client,
          wabaAccountId,
          onboarded.numbers,
          new Map([[request.phone_number_id, secrets.seal(registerPin)]]),
        );
      });
    } catch (error) {
      throw this.conflictFrom(error);
    }
    return { pin: userPin };
  }

  /** Links a further account to a signed-in user (PUT /api/auth/facebook/callback/). */
  async connectAccount(
    userId: number,
    request: { code: string; wabaId: string; phoneNumberId: string; businessId?: string },
  ) {
    const { pool, graph, secrets } = this.deps;
    const owner = await findWabaOwner(pool, request.wabaId);
    if (owner === userId)
      throw HttpError.field(409, 'waba_id', 'This WhatsApp Business Account is already connected');
    if (owner !== undefined) throw alreadyLinked();
    const registerPin = randomPin(6);
    const onboarded = await onboardAtCloudApi(graph, { ...request, registerPin });
    try {
      await withTransaction(pool, async (client) => {
        const wabaAccountId = await insertWaba(client, {
          wabaId: request.wabaId,
          userId,
          name: onboarded.waba.name,
          businessId: request.businessId,
          businessTokenEncrypted: secrets.seal(onboarded.businessToken),
        });
        await upsertPhoneNumbers(
          client,
          wabaAccountId,
          onboarded.numbers,
          new Map([[request.phoneNumberId, secrets.seal(registerPin)]]),
        );
      });
    } catch (error) {
      throw this.conflictFrom(error);
    }
  }

  async login(username: string, password: string, ip: string): Promise<LoginResponse> {
    const { pool } = this.deps;
    const email = username.trim().toLowerCase();
    await this.enforceLimit('login', email, ip);
    const user = await findUserByEmail(pool, email);
    // Verify against a decoy when the e-mail is unknown, so timing does not reveal which e-mails exist.
    const valid = await verifySecret(user?.password_hash ?? (await decoyHash()), password);
    if (!user || !valid) {
      await recordFailure(pool, 'login', email, ip);
      throw new HttpError(401, INVALID_LOGIN);
    }
    const session = await this.startSession(user.id, user.email, randomUUID());
    return {
      accessToken: session.access,
      refreshToken: session.refresh,
      wabas: await listWabaAccounts(pool, user.id),
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

  /** Sets a new password when the PIN matches; every session of the user ends. */
  async resetPassword(email: string, pin: string, newPassword: string, ip: string): Promise<void> {
    const { pool } = this.deps;
    await this.enforceLimit('password_reset', email, ip);
    const user = await findUserByEmail(pool, email);
    const valid = await verifySecret(user?.pin_hash ?? (await decoyHash()), pin);
    if (!user || !valid) {
      await recordFailure(pool, 'password_reset', email, ip);
      throw new HttpError(400, INVALID_RESET);
    }
    await updatePassword(pool, user.id, await hashSecret(newPassword));
    await revokeAllForUser(pool, user.id);
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

  private async enforceLimit(kind: AttemptKind, email: string, ip: string): Promise<void> {
    const wait = await retryAfterSeconds(this.deps.pool, kind, email, ip);
    if (wait !== null) {
      throw new HttpError(
        429,
        `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`,
        undefined,
        {
          'retry-after': String(wait),
        },
      );
    }
  }

  private conflictFrom(error: unknown): unknown {
    const constraint = uniqueViolation(error);
    if (constraint === 'users_email_key') return alreadyRegistered();
    if (constraint === 'waba_accounts_waba_id_key') return alreadyLinked();
    if (constraint === 'phone_numbers_phone_number_id_key') {
      return HttpError.field(
        409,
        'phone_number_id',
        'This phone number is already linked to another account',
      );
    }
    return error;
  }
}
