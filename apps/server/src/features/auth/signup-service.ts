import type { SignupRequest } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import type { GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import { hashSecret } from '../../security/password-hasher';
import { randomPin } from '../../security/random-pin';
import type { SecretBox } from '../../security/secret-box';
import {
  findWabaOwner,
  insertWaba,
  upsertPhoneNumbers,
  activateAtCloudApi,
  proveEmbeddedSignup,
  type ProvenSignup,
} from '../accounts/index';
import { type AttemptLimiter, SIGNUP_POLICY } from './attempt-limiter';
import { findUserByEmail, insertUser } from './users-repo';

const alreadyRegistered = () => HttpError.field(409, 'email', 'This email is already registered');
const alreadyLinked = () =>
  HttpError.field(409, 'waba_id', 'This WhatsApp Business Account is already linked to another user');

export interface SignupServiceDeps {
  pool: Pool;
  graph: GraphClient;
  secrets: SecretBox;
  limiter: AttemptLimiter;
}

/**
 * Sign-up and linking further accounts after Embedded Signup (docs/decisions/015). Every request follows one
 * order: prove the Embedded Signup code at the Cloud API (changes nothing there), then check the request
 * against what Herald stores (so nothing about Herald's users is said to a caller without a proven code),
 * then subscribe and register at the Cloud API, then write everything in one transaction.
 */
export class SignupService {
  constructor(private readonly deps: SignupServiceDeps) {}

  /** Creates the user and links their first account; at most 20 attempts per address per hour. */
  async signUp(request: SignupRequest, address: string): Promise<{ pin: string }> {
    const { pool, graph, limiter } = this.deps;
    await limiter.reserve(SIGNUP_POLICY, { address });
    const proven = await proveEmbeddedSignup(graph, {
      code: request.code,
      wabaId: request.waba_id,
      phoneNumberId: request.phone_number_id,
    });
    if (await findUserByEmail(pool, request.email)) throw alreadyRegistered();
    if ((await findWabaOwner(pool, request.waba_id)) !== undefined) throw alreadyLinked();

    // A new PIN has 6 digits (contracts' PinSchema), as Meta's two-step PIN must: one PIN guards both.
    const pin = request.pin ?? randomPin(6);
    await activateAtCloudApi(graph, proven, {
      wabaId: request.waba_id,
      phoneNumberId: request.phone_number_id,
      registerPin: pin,
    });
    const [passwordHash, pinHash] = await Promise.all([hashSecret(request.password), hashSecret(pin)]);
    try {
      await withTransaction(pool, async (client) => {
        const userId = await insertUser(client, request.email, passwordHash, pinHash);
        await this.storeAccount(client, proven, {
          userId,
          wabaId: request.waba_id,
          phoneNumberId: request.phone_number_id,
          businessId: request.account_data?.business_id,
          registerPin: pin,
        });
      });
    } catch (error) {
      throw conflictFrom(error);
    }
    return { pin };
  }

  /** Links a further account to a signed-in user (PUT /api/auth/facebook/callback/). */
  async connectAccount(
    userId: number,
    request: { code: string; wabaId: string; phoneNumberId: string; businessId?: string },
  ): Promise<void> {
    const { pool, graph } = this.deps;
    const proven = await proveEmbeddedSignup(graph, request, {
      code: 'payload.code',
      phoneNumberId: 'payload.account_data.phone_number_id',
    });
    const owner = await findWabaOwner(pool, request.wabaId);
    if (owner === userId)
      throw HttpError.field(409, 'waba_id', 'This WhatsApp Business Account is already connected');
    if (owner !== undefined) throw alreadyLinked();
    const registerPin = randomPin(6);
    await activateAtCloudApi(graph, proven, { ...request, registerPin });
    try {
      await withTransaction(pool, (client) =>
        this.storeAccount(client, proven, { ...request, userId, registerPin }),
      );
    } catch (error) {
      throw conflictFrom(error);
    }
  }

  private async storeAccount(
    client: PoolClient,
    proven: ProvenSignup,
    account: {
      userId: number;
      wabaId: string;
      phoneNumberId: string;
      businessId?: string;
      registerPin: string;
    },
  ): Promise<void> {
    const { secrets } = this.deps;
    const wabaAccountId = await insertWaba(client, {
      wabaId: account.wabaId,
      userId: account.userId,
      name: proven.waba.name,
      businessId: account.businessId,
      businessTokenEncrypted: secrets.seal(proven.businessToken),
      mmApiStatus: proven.waba.marketing_messages_onboarding_status,
    });
    await upsertPhoneNumbers(
      client,
      wabaAccountId,
      proven.numbers,
      new Map([[account.phoneNumberId, secrets.seal(account.registerPin)]]),
    );
  }
}

/** A unique violation met while storing (a parallel request won the race) as the 409 naming its field. */
function conflictFrom(error: unknown): unknown {
  const constraint = uniqueViolation(error);
  if (constraint === 'users_email_key') return alreadyRegistered();
  if (constraint === 'waba_accounts_waba_id_key') return alreadyLinked();
  if (constraint === 'phone_numbers_phone_number_id_key') {
    return HttpError.field(409, 'phone_number_id', 'This phone number is already linked to another account');
  }
  return error;
}
