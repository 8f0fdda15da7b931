import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { sandboxBusiness, sandboxState, signUp } from './auth-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

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

  it('keeps a 4-digit user PIN for the account and registers the number with a generated 6-digit one', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: 'four@acme.test', pin: '1234' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.pin).toBe('1234');
    const registration = (await sandboxState(t.sandboxUrl)).registrations.find(
      (r) => r.phone_number_id === business.phone_number_id,
    );
    expect(registration?.pin).toMatch(/^\d{6}$/);
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
    ['pin', { pin: '12a4' }, 'PIN must be 4 to 6 digits'],
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

  it('answers 409 for an e-mail already registered, before spending the code', async () => {
    const first = await sandboxBusiness(t.sandboxUrl);
    expect((await signUp(t.app, first, { email: 'taken@acme.test' })).statusCode).toBe(200);
    const second = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, second, { email: 'TAKEN@acme.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0].field).toBe('email');
    expect((await sandboxState(t.sandboxUrl)).codes.find((c) => c.code === second.code)?.used).toBe(false);
  });

  it('answers 409 for an account already linked to another user', async () => {
    const business = await sandboxBusiness(t.sandboxUrl);
    expect((await signUp(t.app, business, { email: 'first@acme.test' })).statusCode).toBe(200);
    const response = await signUp(t.app, business, { email: 'second@acme.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors[0].field).toBe('waba_id');
  });

  it('answers 502 with Meta’s message when the Cloud API refuses, and creates nothing', async () => {
    const before = await count('users');
    const business = await sandboxBusiness(t.sandboxUrl);
    const response = await signUp(t.app, business, { email: 'badcode@acme.test', code: 'not-a-real-code' });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/^WhatsApp Cloud API error: .+/);
    expect(await count('users')).toBe(before);
    expect(await count('waba_accounts')).toBeGreaterThan(0);
    const linked = await t.db.pool.query('select 1 from waba_accounts where waba_id = $1', [
      business.waba_id,
    ]);
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
});
