import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createPool } from '../../db/pool';
import { hashSecret } from '../../security/password-hasher';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { AttemptLimiter, LOGIN_POLICY, PIN_POLICY } from './attempt-limiter';
import { login, signedInUser } from './auth-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const LOGIN = LOGIN_POLICY.limits as { account_address: number; address: number; account: number };
const PIN = PIN_POLICY.limits as { account_address: number; account: number; address: number };

function reset(email: string, pin: string, remoteAddress: string, newPassword = 'battery staple') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/password/reset/',
    payload: { email, pin, new_password: newPassword },
    remoteAddress,
  });
}

/** How many answers had each status. */
function tally(responses: Array<{ statusCode: number }>): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

function expectRetryAfter(response: { headers: Record<string, unknown> }, windowSeconds: number) {
  const seconds = Number(response.headers['retry-after']);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
}

describe('parallel guesses: exactly the limit is checked', () => {
  it(`checks exactly ${LOGIN.account_address} of 100 wrong passwords sent at once, across two API instances`, async () => {
    await signedInUser(t, 'victim@acme.test');
    // A second app on the same database, with its own pool: two API processes as far as Postgres can tell.
    const secondPool = createPool(t.db.url, 5);
    const second = await buildApp({ config: t.config, pool: secondPool, logger: false });
    try {
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 === 0 ? t.app : second).inject({
            method: 'POST',
            url: '/api/auth/login/',
            payload: { username: 'victim@acme.test', password: `wrong ${i}` },
            remoteAddress: '203.0.113.7',
          }),
        ),
      );
      const counts = tally(responses);
      console.log(JSON.stringify({ figure: 'parallel wrong passwords', sent: 100, statuses: counts }));
      expect(counts).toEqual({ 401: LOGIN.account_address, 429: 100 - LOGIN.account_address });
      const refused = responses.filter((response) => response.statusCode === 429);
      for (const response of refused) expectRetryAfter(response, LOGIN_POLICY.windowSeconds);
      expect(refused[0]!.json().detail).toMatch(
        /^Too many failed sign-in attempts\. Try again in 15 minutes\.$/,
      );
    } finally {
      await second.close();
      await secondPool.end();
    }
  });

  it(`checks exactly ${PIN.account_address} of 60 wrong PINs sent at once`, async () => {
    await signedInUser(t, 'pin-victim@acme.test');
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => reset('pin-victim@acme.test', String(100000 + i), '203.0.113.8')),
    );
    const counts = tally(responses);
    console.log(JSON.stringify({ figure: 'parallel wrong PINs', sent: 60, statuses: counts }));
    expect(counts).toEqual({ 400: PIN.account_address, 429: 60 - PIN.account_address });
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expectRetryAfter(response, PIN_POLICY.windowSeconds);
      expect(response.json().detail).toMatch(/^Too many failed PIN attempts\./);
    }
  });

  it(`checks exactly ${LOGIN.account} guesses at one e-mail spread over many addresses at once`, async () => {
    await signedInUser(t, 'distributed@acme.test');
    const addresses = Array.from({ length: 15 }, (_, i) => `198.51.100.${i + 1}`);
    const responses = await Promise.all(
      addresses.flatMap((address) =>
        Array.from({ length: LOGIN.account_address }, (_, i) =>
          login(t.app, 'distributed@acme.test', `wrong ${i}`, address),
        ),
      ),
    );
    expect(tally(responses)).toEqual({
      401: LOGIN.account,
      429: addresses.length * LOGIN.account_address - LOGIN.account,
    });
  });
});

describe('limits per account and per address apart', () => {
  it('lets the owner sign in from another address while a stranger is locked out', async () => {
    await signedInUser(t, 'owner@acme.test');
    for (let i = 0; i < LOGIN.account_address; i += 1) {
      expect((await login(t.app, 'owner@acme.test', `guess ${i}`, '192.0.2.66')).statusCode).toBe(401);
    }
    const stranger = await login(t.app, 'owner@acme.test', 'another guess', '192.0.2.66');
    expect(stranger.statusCode).toBe(429);
    expectRetryAfter(stranger, LOGIN_POLICY.windowSeconds);
    expect((await login(t.app, 'owner@acme.test', 'correct horse', '192.0.2.10')).statusCode).toBe(200);
    // Other e-mails from the stranger's address are not locked by that e-mail's failures.
    expect((await login(t.app, 'someone-else@acme.test', 'x', '192.0.2.66')).statusCode).toBe(401);
  });

  it('does not count correct sign-ins: after 9 failures, sign-ins work and the 10th failure still answers 401', async () => {
    await signedInUser(t, 'typo@acme.test');
    const address = '192.0.2.20';
    for (let i = 0; i < LOGIN.account_address - 1; i += 1) {
      expect((await login(t.app, 'typo@acme.test', `typo ${i}`, address)).statusCode).toBe(401);
    }
    for (let i = 0; i < 5; i += 1) {
      expect((await login(t.app, 'typo@acme.test', 'correct horse', address)).statusCode).toBe(200);
    }
    expect((await login(t.app, 'typo@acme.test', 'last typo', address)).statusCode).toBe(401);
    expect((await login(t.app, 'typo@acme.test', 'correct horse', address)).statusCode).toBe(429);
  });

  it(`limits one address to ${LOGIN.address} failures across e-mails; other addresses go on`, async () => {
    const address = '192.0.2.30';
    const guesses = await Promise.all(
      Array.from({ length: LOGIN.address }, (_, i) => login(t.app, `spray${i}@acme.test`, 'x', address)),
    );
    expect(tally(guesses)).toEqual({ 401: LOGIN.address });
    expect((await login(t.app, 'fresh@acme.test', 'x', address)).statusCode).toBe(429);
    expect((await login(t.app, 'fresh@acme.test', 'x', '192.0.2.31')).statusCode).toBe(401);
  });

  it('keys an IPv6 client by its /64', async () => {
    await signedInUser(t, 'ipv6@acme.test');
    for (let i = 0; i < LOGIN.account_address; i += 1) {
      const address = `2001:db8:1:2::${(i + 1).toString(16)}`;
      expect((await login(t.app, 'ipv6@acme.test', `guess ${i}`, address)).statusCode).toBe(401);
    }
    expect((await login(t.app, 'ipv6@acme.test', 'x', '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await login(t.app, 'ipv6@acme.test', 'correct horse', '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('counts PIN failures apart from sign-ins: a locked PIN reset leaves sign-in alone', async () => {
    await signedInUser(t, 'pin-apart@acme.test');
    for (let i = 0; i < PIN.account_address; i += 1) {
      expect((await reset('pin-apart@acme.test', String(200000 + i), '192.0.2.40')).statusCode).toBe(400);
    }
    expect((await reset('pin-apart@acme.test', '999999', '192.0.2.40')).statusCode).toBe(429);
    // Per e-mail and address: another address may still try (side-doors.int.test.ts covers the owner).
    expect((await reset('pin-apart@acme.test', '999999', '192.0.2.41')).statusCode).toBe(400);
    expect((await login(t.app, 'pin-apart@acme.test', 'correct horse', '192.0.2.40')).statusCode).toBe(200);
  });
});

describe('PINs', () => {
  it('still resets the password with a legacy 4-digit PIN, and a right PIN does not count', async () => {
    const [passwordHash, pinHash] = await Promise.all([hashSecret('old password'), hashSecret('4321')]);
    await t.db.pool.query('insert into users (email, password_hash, pin_hash) values ($1, $2, $3)', [
      'legacy@acme.test',
      passwordHash,
      pinHash,
    ]);
    const address = '192.0.2.50';
    for (let i = 0; i < PIN.account_address - 1; i += 1) {
      expect((await reset('legacy@acme.test', String(1000 + i), address)).statusCode).toBe(400);
    }
    const response = await reset('legacy@acme.test', '4321', address, 'new password 1');
    expect(response.statusCode).toBe(200);
    expect((await reset('legacy@acme.test', '4321', address, 'new password 2')).statusCode).toBe(200);
    expect((await login(t.app, 'legacy@acme.test', 'new password 2', address)).statusCode).toBe(200);
    // The two right PINs were given back: one failure is left before the limit.
    expect((await reset('legacy@acme.test', '0000', address)).statusCode).toBe(400);
    expect((await reset('legacy@acme.test', '4321', address)).statusCode).toBe(429);
  });

  it('refuses a PIN at reset that is not 4 to 6 digits, naming pin', async () => {
    const response = await reset('legacy@acme.test', '12a4', '192.0.2.51');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ field: 'pin', message: 'PIN must be 4 to 6 digits' });
  });
});

describe('counters', () => {
  it('refuses an over-long username with 400 naming it, and keys any long value by its hash', async () => {
    const response = await login(t.app, `${'a'.repeat(300)}@acme.test`, 'x', '192.0.2.60');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('username');
    // Past the contract (e.g. an address from a proxy's header), a key too long for an index entry is hashed.
    const limiter = new AttemptLimiter(t.db.pool);
    const long = randomBytes(4000).toString('hex');
    const attempt = await limiter.reserve(LOGIN_POLICY, { account: long, address: long });
    await attempt.release();
    const { rows } = await t.db.pool.query<{ key: string }>(
      "select key from attempt_counters where scope = 'account_address' and key like 'sha256:%'",
    );
    expect(rows).toHaveLength(1);
  });

  it('keeps no counter for a refused attempt and purges ended windows', async () => {
    const { rows } = await t.db.pool.query<{ attempts: number }>(
      "select attempts from attempt_counters where kind = 'login' and scope = 'account_address' and key = $1",
      ['203.0.113.7/victim@acme.test'],
    );
    expect(rows).toEqual([{ attempts: LOGIN.account_address }]);
    await t.db.pool.query("update attempt_counters set window_ends = now() - interval '1 second'");
    // An ended window starts over: the victim may try again.
    expect((await login(t.app, 'victim@acme.test', 'correct horse', '203.0.113.7')).statusCode).toBe(200);
    await t.db.pool.query("update attempt_counters set window_ends = now() - interval '1 second'");
    expect(await new AttemptLimiter(t.db.pool).purgeEnded()).toBeGreaterThan(0);
    expect(Number((await t.db.pool.query('select count(*) from attempt_counters')).rows[0].count)).toBe(0);
  });
});
