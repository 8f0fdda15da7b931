import type { AccountChangeRequest } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import { hashSecret, verifySecret } from '../../security/password-hasher';
import type { AttemptLimiter, AttemptPolicy } from './attempt-limiter';
import { revokeOtherSessions } from './refresh-tokens-repo';
import { findUserById, updateCredentials } from './users-repo';

export const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';
export const EMAIL_TAKEN = 'This email is already used by another account.';

/**
 * A wrong current password is a password guess made from a session: 10 per user per 15 minutes, as the
 * sign-in allows per e-mail and address, so a session left open cannot guess the password faster. Counted
 * apart from sign-in failures, so guesses here never lock the user out of signing in.
 */
const CURRENT_PASSWORD_POLICY: AttemptPolicy = {
  kind: 'current_password',
  windowSeconds: 15 * 60,
  limits: { account: 10 },
  field: 'current_password',
  refusal: (wait) => `Too many wrong current passwords. Try again in ${wait} minute${wait === 1 ? '' : 's'}.`,
};

/**
 * Account Settings: a new sign-in e-mail and/or password for the signed-in user, once the current password
 * is proved. Every other session of the user (refresh token families) ends in the same transaction, so a
 * session someone else holds cannot outlive the change; the caller's own session (`family`) keeps working.
 */
export async function changeAccount(
  deps: { pool: Pool; limiter: AttemptLimiter },
  session: { userId: number; family: string },
  change: AccountChangeRequest,
  ip: string,
): Promise<{ email: string }> {
  const { pool, limiter } = deps;
  const user = await findUserById(pool, session.userId);
  if (!user) throw HttpError.field(401, 'authorization', 'This session has ended. Sign in again.');
  const attempt = await limiter.reserve(CURRENT_PASSWORD_POLICY, { account: `user:${user.id}`, address: ip });
  // 400, not 401: the web answers a 401 by refreshing the session, and this session is fine.
  if (!(await verifySecret(user.password_hash, change.current_password)))
    throw HttpError.field(400, 'current_password', WRONG_CURRENT_PASSWORD);
  await attempt.release();

  const passwordHash = change.new_password === undefined ? null : await hashSecret(change.new_password);
  try {
    return await withTransaction(pool, async (client) => {
      const email = await updateCredentials(client, user.id, change.email ?? null, passwordHash);
      await revokeOtherSessions(client, user.id, session.family);
      return { email };
    });
  } catch (error) {
    if (uniqueViolation(error) === 'users_email_key') throw HttpError.field(409, 'email', EMAIL_TAKEN);
    throw error;
  }
}
