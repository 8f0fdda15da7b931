import type { AccountChangeRequest } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { uniqueViolation, withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import { hashSecret, verifySecret } from '../../security/password-hasher';
import type { TokenIssuer } from '../../security/tokens';
import type { AccountMailer } from './account-mailer';
import type { AttemptLimiter, AttemptPolicy } from './attempt-limiter';
import { checkEmailCode, requireMailer, sendEmailChange } from './email-change';
import { revokeOtherSessions } from './refresh-tokens-repo';
import { findUserById, updateCredentials } from './users-repo';

export const WRONG_CURRENT_PASSWORD = 'The current password is not correct.';
/** Only ever said to whoever proved the new address is theirs (the mailed code): no enumeration. */
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

export interface AccountChangeDeps {
  pool: Pool;
  limiter: AttemptLimiter;
  tokens: TokenIssuer;
  mailer: AccountMailer | null;
}

/** What changed: the sign-in e-mail now, a new one waiting for its code, and whether the password changed. */
export interface AccountChangeOutcome {
  email: string;
  pendingEmail?: string;
  passwordChanged: boolean;
}

/**
 * Account Settings: a new sign-in e-mail and/or password for the signed-in user, once the current password
 * is proved. A new e-mail is only mailed a code (decision 064); it becomes the sign-in e-mail when the code
 * comes back. Whatever changes, every other session of the user (refresh token families) ends in the same
 * transaction, so a session someone else holds cannot outlive it; the caller's own session keeps working.
 */
export async function changeAccount(
  deps: AccountChangeDeps,
  session: { userId: number; family: string },
  change: AccountChangeRequest,
  ip: string,
): Promise<AccountChangeOutcome> {
  const { pool, limiter } = deps;
  const user = await findUserById(pool, session.userId);
  if (!user) throw HttpError.field(401, 'authorization', 'This session has ended. Sign in again.');
  const newEmail = change.email !== undefined && change.email !== user.email ? change.email : undefined;
  // Before anything is checked or changed: without a mail server no new e-mail could ever be confirmed.
  if (newEmail !== undefined) requireMailer(deps.mailer);
  const attempt = await limiter.reserve(CURRENT_PASSWORD_POLICY, { account: `user:${user.id}`, address: ip });
  // 400, not 401: the web answers a 401 by refreshing the session, and this session is fine.
  if (!(await verifySecret(user.password_hash, change.current_password)))
    throw HttpError.field(400, 'current_password', WRONG_CURRENT_PASSWORD);
  await attempt.release();

  const confirmed = newEmail !== undefined && change.email_code !== undefined;
  if (confirmed) await checkEmailCode(deps, user, newEmail, change.email_code!, ip);
  // Mailed before the password is saved, so a refused mail (502) leaves the whole request undone.
  else if (newEmail !== undefined) await sendEmailChange(deps, user, newEmail, ip);

  const passwordHash = change.new_password === undefined ? null : await hashSecret(change.new_password);
  if (!confirmed && passwordHash === null)
    return { email: user.email, pendingEmail: newEmail, passwordChanged: false };
  try {
    const email = await withTransaction(pool, async (client) => {
      const stored = await updateCredentials(client, user.id, confirmed ? newEmail : null, passwordHash);
      await revokeOtherSessions(client, user.id, session.family);
      return stored;
    });
    return {
      email,
      pendingEmail: confirmed ? undefined : newEmail,
      passwordChanged: passwordHash !== null,
    };
  } catch (error) {
    // Taken between the code's mail and its use: the caller proved the address is theirs, so it is no leak.
    if (uniqueViolation(error) === 'users_email_key') throw HttpError.field(409, 'email', EMAIL_TAKEN);
    throw error;
  }
}
