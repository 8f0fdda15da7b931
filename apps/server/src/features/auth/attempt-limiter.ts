import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';

/**
 * What a counter counts: one e-mail from one address, one address across e-mails, one e-mail from anywhere,
 * or one trusted browser (its device cookie, decision 063) whatever its address.
 */
export type AttemptScope = 'account_address' | 'address' | 'account' | 'device';

/** The limits of one kind of attempt: at most `limits[scope]` attempts per window in each scope it names. */
export interface AttemptPolicy {
  kind: 'login' | 'pin' | 'signup' | 'current_password' | 'email_change' | 'email_code';
  windowSeconds: number;
  limits: Partial<Record<AttemptScope, number>>;
  /** The request field whose guesses the limit guards: the 429 names it, as every 4xx names its field. */
  field: string;
  /** The 429 message, given the whole minutes to wait. */
  refusal: (minutes: number) => string;
}

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

/**
 * Sign-in (docs/decisions/008): a tight limit per e-mail and address, so a stranger guessing from address A
 * locks only A out of that e-mail; a looser one per address, across e-mails, against one machine trying many
 * accounts; a high one per e-mail from anywhere that only slows a guessing run spread over many addresses.
 */
export const LOGIN_POLICY: AttemptPolicy = {
  kind: 'login',
  windowSeconds: 15 * 60,
  limits: { account_address: 10, address: 50, account: 100 },
  field: 'password',
  refusal: (wait) => `Too many failed sign-in attempts. Try again in ${minutes(wait)}.`,
};

/**
 * Sign-in from a browser holding the user's device cookie (decision 063): its own allowance, counted apart
 * from every untrusted client, so strangers filling the per-e-mail ceiling never lock out the owner's browser.
 */
export const LOGIN_DEVICE_POLICY: AttemptPolicy = { ...LOGIN_POLICY, limits: { device: 10 } };

/**
 * The PIN check of the password reset, shaped like sign-in's: 5 failures per e-mail and address, 10 per
 * address across e-mails, and a ceiling of 20 per e-mail from anywhere (a PIN has far fewer possibilities than
 * a password, so the ceiling is low). A stranger at one address thereby never blocks the owner's reset from
 * another, and the owner's trusted browser keeps its own allowance (PIN_DEVICE_POLICY).
 */
export const PIN_POLICY: AttemptPolicy = {
  kind: 'pin',
  windowSeconds: 15 * 60,
  limits: { account_address: 5, address: 10, account: 20 },
  field: 'pin',
  refusal: (wait) => `Too many failed PIN attempts. Try again in ${minutes(wait)}.`,
};

/** The PIN check from the user's trusted browser: 5 per 15 minutes of its own. */
export const PIN_DEVICE_POLICY: AttemptPolicy = { ...PIN_POLICY, limits: { device: 5 } };

/** Sign-up: every attempt counts (it spends an Embedded Signup code at Meta), 20 per address per hour. */
export const SIGNUP_POLICY: AttemptPolicy = {
  kind: 'signup',
  windowSeconds: 60 * 60,
  limits: { address: 20 },
  field: 'code',
  refusal: (wait) => `Too many sign-up attempts from this address. Try again in ${minutes(wait)}.`,
};

/**
 * The key of a client address: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64,
 * the block one subscriber is usually given, so walking through one's own /64 does not multiply the limits.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** Keys stay short enough for the counters' index whatever a client sends: a long one is kept as its hash. */
function counterKey(key: string): string {
  return key.length <= 300 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** One reserved attempt: give it back when it turned out right, so a correct one is never a failure. */
export interface Reservation {
  release(): Promise<void>;
}

/** Purges counters whose window has ended about once per this many reservations. */
const PURGE_EVERY = 100;

/**
 * Attempt limits counted in Postgres, atomically: `reserve` is one call of reserve_attempt() (migration 010),
 * which adds the attempt to every counter it touches only when none is full, under the counters' row locks.
 * So N parallel attempts count N, exactly `limit` pass, and that holds across any number of API processes.
 */
export class AttemptLimiter {
  constructor(private readonly pool: Pool) {}

  /** Reserves one attempt before the secret is checked, or throws 429 with Retry-After (seconds). */
  async reserve(
    policy: AttemptPolicy,
    subject: { account?: string; address: string; device?: string },
  ): Promise<Reservation> {
    const address = addressKey(subject.address);
    const keys: Record<AttemptScope, string | undefined> = {
      account_address: subject.account === undefined ? undefined : `${address}/${subject.account}`,
      address,
      account: subject.account,
      device: subject.device,
    };
    const counters = (Object.entries(policy.limits) as Array<[AttemptScope, number]>).flatMap(
      ([scope, limit]) => {
        const key = keys[scope];
        return key === undefined ? [] : [{ scope, key, limit }];
      },
    );
    const scopes = counters.map((counter) => counter.scope);
    const counterKeys = counters.map((counter) => counterKey(counter.key));
    const { rows } = await this.pool.query<{
      reserved: boolean;
      retry_after_seconds: number;
      windows: string[] | null;
    }>('select reserved, retry_after_seconds, windows from reserve_attempt($1, $2, $3, $4, $5)', [
      policy.kind,
      scopes,
      counterKeys,
      counters.map((counter) => counter.limit),
      policy.windowSeconds,
    ]);
    const answer = rows[0]!;
    if (!answer.reserved) {
      const wait = answer.retry_after_seconds;
      const message = policy.refusal(Math.ceil(wait / 60));
      throw new HttpError(429, message, [{ field: policy.field, message }], {
        'retry-after': String(wait),
      });
    }
    if (Math.random() < 1 / PURGE_EVERY) await this.purgeEnded();
    const windows = answer.windows ?? [];
    return {
      release: async () => {
        await this.pool.query('select release_attempt($1, $2, $3, $4)', [
          policy.kind,
          scopes,
          counterKeys,
          windows,
        ]);
      },
    };
  }

  /** Deletes counters whose window ended, skipping any an attempt holds (so the purge never waits on one). */
  async purgeEnded(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `delete from attempt_counters where ctid = any(array(
         select ctid from attempt_counters where window_ends < now() limit 1000 for update skip locked))`,
    );
    return rowCount ?? 0;
  }
}
