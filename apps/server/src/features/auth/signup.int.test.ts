import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { INVALID_CODE_MESSAGE } from '../accounts/cloud-onboarding';
import { sandboxBusiness, sandboxState, signUp } from './auth-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const codeUsed = async (code: string) =>
  (await sandboxState(t.sandboxUrl)).codes.find((c) => c.code === code)?.used;

const count = async (table: string) =>
  Number((await t.db.pool.query(`select count(*) from ${table}`)).rows[0].count);

describe('POST /api/auth/facebook/callback/ (sign-up)', () => {
  it('links the account at the Cloud API and creates the user with the user’s 6-digit PIN', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: 'Six@Acme.test', pin: '246810' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Signup successful', data: { pin: '246810' } });

    const state = await sandboxState(t.sandboxUrl);
    expect(state.registrations).toContainEqual({ phone_number_id: business.phone_number_id, pin: '246810' });
    expect(state.subscriptions.map((s) => s.waba_id)).toContain(business.waba_id);
    expect(state.codes.find((c) => c.code === business.code)?.used).toBe(true);

    const { rows } = await t.db.pool.query(
      `select u.email, u.password_hash, u.pin_hash, w.business_token_encrypted, p.two_step_pin_encrypted
         from users u join waba_accounts w on w.user_id = u.id join phone_numbers p on p.waba_account_id = w.id
        where w.waba_id = $1`,
      [business.waba_id],
    );
    expect(rows[0].email).toBe('six@acme.test');
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].pin_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].business_token_encrypted).not.toMatch(/^EAA/);
    expect(rows[0].two_step_pin_encrypted).not.toContain('246810');
  });

  it('refuses a new PIN that is not 6 digits with 400 naming pin, before anything reaches the Cloud API', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: 'four@acme.test', pin: '1234' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'pin', message: 'PIN must be 6 digits' }]);
    expect(await codeUsed(business.code)).toBe(false);
  });

  it('generates a 6-digit PIN when none is given and registers the number with it', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: 'nopin@acme.test' });
    const pin = response.json().data.pin;
    expect(pin).toMatch(/^\d{6}$/);
    expect((await sandboxState(t.sandboxUrl)).registrations).toContainEqual({
      phone_number_id: business.phone_number_id,
      pin,
    });
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address.'],
    ['password', { password: 'short' }, 'Password must be at least 8 characters long.'],
    ['pin', { pin: '12a4' }, 'PIN must be 6 digits'],
    ['code', { code: '' }, 'The authorization code is required'],
    ['waba_id', { waba_id: 'abc' }, 'must be a numeric id'],
  ])('answers 400 naming %s and creates nothing', async (field, fields, message) => {
    const before = await count('users');
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: `bad-${field}@acme.test`, ...fields });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ field, message });
    expect(response.json().detail).toContain(field);
    expect(await count('users')).toBe(before);
  });

  it('answers 400 on code, not 409, for a registered e-mail with a bad code: the e-mail is not revealed', async () => {
    const first = await sandboxBusiness(t.sandboxUrl);
    expect((await signUp(t.app, first, { email: 'taken@acme.test' })).statusCode).toBe(200);
    const second = await sandboxBusiness(t.sandboxUrl);
    const forged = await signUp(t.app, second, { email: 'TAKEN@acme.test', code: 'forged-code' });
    const unknown = await signUp(t.app, second, { email: 'never-seen@acme.test', code: 'forged-code' });
    expect(forged.statusCode).toBe(400);
    // The same answer, but for the id each request gets of its own.
    expect({ ...forged.json(), request_id: 0 }).toEqual({ ...unknown.json(), request_id: 0 });
    expect(forged.json().errors).toEqual([{ field: 'code', message: INVALID_CODE_MESSAGE }]);
  });

  it('answers 409 for a registered e-mail once the code is proven, and changes nothing at the Cloud API', async () => {
    const second = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, second, { email: 'TAKEN@acme.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0].field).toBe('email');
    const state = await sandboxState(t.sandboxUrl);
    expect(state.codes.find((c) => c.code === second.code)?.used).toBe(true);
    expect(state.subscriptions.map((s) => s.waba_id)).not.toContain(second.waba_id);
    expect(state.registrations.map((r) => r.phone_number_id)).not.toContain(second.phone_number_id);
    const linked = await t.db.pool.query('select 1 from waba_accounts where waba_id = $1', [second.waba_id]);
    expect(linked.rowCount).toBe(0);
  });

  it('answers 409 for an account already linked to another user once the code is proven', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const { rows } = await t.db.pool.query<{ id: string }>(
      "select id from users where email = 'taken@acme.test'",
    );
    // Another user holds this account already (a code is per sign-up, so the link is written directly).
    await t.db.pool.query(
      "insert into waba_accounts (waba_id, user_id, business_token_encrypted) values ($1, $2, 'sealed')",
      [business.waba_id, rows[0]!.id],
    );
    const response = await signUp(t.app, business, { email: 'second@acme.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0].field).toBe('waba_id');
    expect((await sandboxState(t.sandboxUrl)).registrations.map((r) => r.phone_number_id)).not.toContain(
      business.phone_number_id,
    );
    expect((await t.db.pool.query("select 1 from users where email = 'second@acme.test'")).rowCount).toBe(0);
  });

  it('answers 400 naming code for a never-issued, used or foreign code, and creates nothing', async () => {
    const before = await count('users');
    const used = await sandboxBusiness(t.sandboxUrl);
    expect((await signUp(t.app, used, { email: 'used-code@acme.test' })).statusCode).toBe(200);
    const mine = await sandboxBusiness(t.sandboxUrl);
    const someoneElses = await sandboxBusiness(t.sandboxUrl);
    const cases = [
      { email: 'never@acme.test', code: 'not-a-real-code' },
      { email: 'used@acme.test', code: used.code },
      { email: 'foreign@acme.test', code: someoneElses.code },
    ];
    for (const fields of cases) {
      const response = await signUp(t.app, mine, fields);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('code');
      expect(response.json().detail).toMatch(/Embedded Signup code .*Start the signup again\.$/);
    }
    expect(await count('users')).toBe(before + 1);
    const linked = await t.db.pool.query('select 1 from waba_accounts where waba_id = $1', [mine.waba_id]);
    expect(linked.rowCount).toBe(0);
  });

  it('answers 400 when the phone number is not one of the account’s, and creates nothing', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const other = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, {
      email: 'wrongnumber@acme.test',
      phone_number_id: other.phone_number_id,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('phone_number_id');
    const user = await t.db.pool.query("select 1 from users where email = 'wrongnumber@acme.test'");
    expect(user.rowCount).toBe(0);
  });

  it('answers 502 when the Cloud API is unreachable', async () => {
    const offline = await startTestApp({ GRAPH_API_BASE: 'http://127.0.0.1:1' });
    try {
      const business = await sandboxBusiness(t.sandboxUrl);
      const response = await signUp(offline.app, business, { email: 'offline@acme.test' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toContain('could not be reached');
    } finally {
      await offline.close();
    }
  });

  it('answers 502 with Meta’s message when Meta itself fails (5xx)', async () => {
    const failing = await failingCloudApi();
    const broken = await startTestApp({ GRAPH_API_BASE: failing.url });
    try {
      const business = await sandboxBusiness(t.sandboxUrl);
      const response = await signUp(broken.app, business, { email: 'meta-down@acme.test' });
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe('WhatsApp Cloud API error: (#131000) Something went wrong');
      expect(await broken.db.pool.query('select 1 from users')).toHaveProperty('rowCount', 0);
    } finally {
      await broken.close();
      await failing.close();
    }
  });

  it('limits sign-up to 20 attempts per address per hour (429 with Retry-After)', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/facebook/callback/',
        remoteAddress: '198.18.0.1',
        payload: {
          code: 'guess',
          waba_id: business.waba_id,
          phone_number_id: business.phone_number_id,
          email: 'probe@acme.test',
          password: 'correct horse',
        },
      });
    const answers = await Promise.all(Array.from({ length: 25 }, attempt));
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(20);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(5);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused[0]!.json().detail).toMatch(/^Too many sign-up attempts from this address\./);
    // Another address is not affected.
    expect((await signUp(t.app, business, { email: 'elsewhere@acme.test' })).statusCode).toBe(200);
  });
});

/** A stand-in for Meta answering every call with a 5xx in Meta's envelope. */
async function failingCloudApi(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        error: { message: '(#131000) Something went wrong', type: 'OAuthException', code: 131000 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
