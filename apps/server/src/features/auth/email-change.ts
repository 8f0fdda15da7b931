import { timingSafeEqual } from 'node:crypto';
import { EMAIL_CODE_LENGTH } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import type { TokenIssuer } from '../../security/tokens';
import type { AccountMailer } from './account-mailer';
import type { AttemptLimiter, AttemptPolicy } from './attempt-limiter';
import { findUserByEmail, type UserRow } from './users-repo';

export const NO_MAIL_SERVER =
  'Changing the sign-in email needs a confirmation email, and this Herald has no mail server (SMTP_URL). ' +
  'Ask your administrator to set one up.';
export const WRONG_EMAIL_CODE = 'The confirmation code is not correct or has expired. Ask for a new one.';

const plural = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

/**
 * Every request for a new e-mail counts (each sends a mail, whether the address is free or taken): 5 per user
 * per hour, so a session can neither probe addresses nor flood someone's mailbox.
 */
const EMAIL_CHANGE_POLICY: AttemptPolicy = {
  kind: 'email_change',
  windowSeconds: 60 * 60,
  limits: { account: 5 },
  field: 'email',
  refusal: (wait) => `Too many email changes asked for. Try again in ${plural(wait)}.`,
};

/** Wrong codes: 5 per user per 15 minutes, against 10^8 codes (a right one is given back). */
const EMAIL_CODE_POLICY: AttemptPolicy = {
  kind: 'email_code',
  windowSeconds: 15 * 60,
  limits: { account: 5 },
  field: 'email_code',
  refusal: (wait) => `Too many wrong confirmation codes. Try again in ${plural(wait)}.`,
};

/** A code is valid in the half hour it was made in and the next one: 30 to 60 minutes. */
const CODE_PERIOD_SECONDS = 30 * 60;

/**
 * The code for moving `user` from its current e-mail to `newEmail` in one period: an HMAC under the token key,
 * so nothing is stored. It names the current e-mail, so once the change is made the code is spent.
 */
function codeFor(tokens: TokenIssuer, user: UserRow, newEmail: string, period: number): string {
  const mac = tokens.mac(['email-change', user.id, user.email, newEmail, period].join('\n'));
  return (mac.readUIntBE(0, 6) % 10 ** EMAIL_CODE_LENGTH).toString().padStart(EMAIL_CODE_LENGTH, '0');
}

const currentPeriod = () => Math.floor(Date.now() / 1000 / CODE_PERIOD_SECONDS);

export interface EmailChangeDeps {
  pool: Pool;
  limiter: AttemptLimiter;
  tokens: TokenIssuer;
  mailer: AccountMailer | null;
}

/** Refuses up front when no confirmation can be mailed: a change nobody confirms would never take effect. */
export function requireMailer(mailer: AccountMailer | null): AccountMailer {
  if (!mailer) throw HttpError.field(400, 'email', NO_MAIL_SERVER);
  return mailer;
}

/**
 * Mails the new address, the same answer for the caller whether it is free or taken (decision 064): a free
 * address gets the code; a taken one is told it already signs in to Herald and that nothing changed.
 */
export async function sendEmailChange(
  deps: EmailChangeDeps,
  user: UserRow,
  newEmail: string,
  ip: string,
): Promise<void> {
  const mailer = requireMailer(deps.mailer);
  await deps.limiter.reserve(EMAIL_CHANGE_POLICY, { account: `user:${user.id}`, address: ip });
  const taken = await findUserByEmail(deps.pool, newEmail);
  if (taken) {
    await mailer.send(
      newEmail,
      'Your Herald sign-in email was not changed',
      'Someone signed in to Herald asked to make this address their sign-in email.\n\n' +
        'This address already signs in to a Herald account, so nothing was changed. If it was you, sign in ' +
        'with this address instead, or reset its password with your PIN.\n',
    );
    return;
  }
  const code = codeFor(deps.tokens, user, newEmail, currentPeriod());
  await mailer.send(
    newEmail,
    'Confirm your new Herald sign-in email',
    `Your confirmation code: ${code}\n\n` +
      'Enter it in Herald under Settings > Account Settings, with your current password, within 30 minutes. ' +
      'Until then your sign-in email stays as it is.\n\nIf you did not ask for this, ignore this email.\n',
  );
}

/** Checks the code mailed for `newEmail` (wrong codes limited per user), or throws 400 naming it. */
export async function checkEmailCode(
  deps: EmailChangeDeps,
  user: UserRow,
  newEmail: string,
  code: string,
  ip: string,
): Promise<void> {
  const attempt = await deps.limiter.reserve(EMAIL_CODE_POLICY, { account: `user:${user.id}`, address: ip });
  const period = currentPeriod();
  const given = Buffer.from(code);
  const right = [period, period - 1].some((p) => {
    const expected = Buffer.from(codeFor(deps.tokens, user, newEmail, p));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!right) throw HttpError.field(400, 'email_code', WRONG_EMAIL_CODE);
  await attempt.release();
}
