import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { WRONG_CURRENT_PASSWORD } from './account-change';
import { login, signedInUser } from './auth-test-helpers';
import { NO_MAIL_SERVER, WRONG_EMAIL_CODE } from './email-change';

/** The mails Herald sent, as a real SMTP server (listening in this test) received them. */
const mails: Array<{ to: string; raw: string }> = [];
let smtp: SMTPServer;
let t: TestApp;
beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo) mails.push({ to: to.address, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

const mailsTo = (address: string) => mails.filter((mail) => mail.to === address);
const codeIn = (raw: string) => /confirmation code: (\d{8})/.exec(raw)?.[1];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const change = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/auth/account/', headers: bearer(token), payload });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/login/refresh/', payload: { refresh: token } });
const wabas = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/wabas/', headers: bearer(token) });

describe('PUT /api/auth/account/', () => {
  it('changes the password: the current session keeps working, every other session is signed out', async () => {
    const here = await signedInUser(t, 'pw-change@acme.test', 'Password Bakery');
    const elsewhere = await login(t.app, 'pw-change@acme.test', 'correct horse');
    const other = elsewhere.json() as { accessToken: string; refreshToken: string };

    const response = await change(here.accessToken, {
      current_password: 'correct horse',
      new_password: 'battery staple',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: 'Your account has been updated. Other sessions have been signed out.',
      email: 'pw-change@acme.test',
    });

    // The other session: its access token and its refresh token are both refused.
    expect((await wabas(other.accessToken)).statusCode).toBe(401);
    expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    // This session: still signed in, and its refresh still rotates.
    expect((await wabas(here.accessToken)).statusCode).toBe(200);
    expect((await refresh(here.refreshToken)).statusCode).toBe(200);
    // Only the new password signs in.
    expect((await login(t.app, 'pw-change@acme.test', 'correct horse', '10.1.0.1')).statusCode).toBe(401);
    expect((await login(t.app, 'pw-change@acme.test', 'battery staple')).statusCode).toBe(200);
  });

  it('changes the e-mail only once the code mailed to it comes back: then the new one signs in', async () => {
    const here = await signedInUser(t, 'old-mail@acme.test', 'Mail Bakery');
    const elsewhere = (await login(t.app, 'old-mail@acme.test', 'correct horse')).json() as {
      accessToken: string;
    };
    const asked = await change(here.accessToken, {
      current_password: 'correct horse',
      email: ' New-Mail@Acme.test ',
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({
      message:
        'We sent a confirmation to new-mail@acme.test. Your sign-in email changes once you enter its code.',
      email: 'old-mail@acme.test',
      pending_email: 'new-mail@acme.test',
    });
    // Nothing changed yet.
    expect((await login(t.app, 'old-mail@acme.test', 'correct horse', '10.1.0.3')).statusCode).toBe(200);
    const code = codeIn(mailsTo('new-mail@acme.test')[0]!.raw)!;
    expect(code).toMatch(/^\d{8}$/);

    const wrong = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'new-mail@acme.test',
      email_code: code === '00000000' ? '00000001' : '00000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toEqual({ field: 'email_code', message: WRONG_EMAIL_CODE });

    const confirmed = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'new-mail@acme.test',
      email_code: code,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({
      message: 'Your account has been updated. Other sessions have been signed out.',
      email: 'new-mail@acme.test',
    });
    expect((await login(t.app, 'new-mail@acme.test', 'correct horse')).statusCode).toBe(200);
    expect((await login(t.app, 'old-mail@acme.test', 'correct horse', '10.1.0.2')).statusCode).toBe(401);
    expect((await wabas(elsewhere.accessToken)).statusCode).toBe(401);
    expect((await wabas(here.accessToken)).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 naming current_password, and changes nothing', async () => {
    const here = await signedInUser(t, 'wrong-current@acme.test', 'Wrong Bakery');
    const elsewhere = (await login(t.app, 'wrong-current@acme.test', 'correct horse')).json() as {
      accessToken: string;
    };
    const response = await change(here.accessToken, {
      current_password: 'not my password',
      new_password: 'battery staple',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: WRONG_CURRENT_PASSWORD,
      errors: [{ field: 'current_password', message: WRONG_CURRENT_PASSWORD }],
    });
    expect((await wabas(elsewhere.accessToken)).statusCode).toBe(200);
    expect((await login(t.app, 'wrong-current@acme.test', 'correct horse')).statusCode).toBe(200);
  });

  it('answers a taken e-mail exactly as a free one; the mail to it says so and nothing changes', async () => {
    await signedInUser(t, 'taken@acme.test', 'Taken Bakery');
    const here = await signedInUser(t, 'wants-taken@acme.test', 'Wanting Bakery');
    const taken = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'TAKEN@acme.test',
    });
    const free = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'free@acme.test',
    });
    expect(taken.statusCode).toBe(200);
    expect(free.statusCode).toBe(200);
    const shape = (body: { message: string; email: string; pending_email: string }) => ({
      ...body,
      message: body.message.replace(body.pending_email, '…'),
      pending_email: '…',
    });
    expect(shape(taken.json())).toEqual(shape(free.json()));
    const mail = mailsTo('taken@acme.test')[0]!.raw;
    expect(mail).toContain('nothing was changed');
    expect(codeIn(mail)).toBeUndefined();
    // Only a mailed code confirms: a guess at the taken address's code is just a wrong code.
    const guess = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'taken@acme.test',
      email_code: '12345678',
    });
    expect(guess.statusCode).toBe(400);
    expect(guess.json().errors[0].field).toBe('email_code');
    expect((await login(t.app, 'wants-taken@acme.test', 'correct horse')).statusCode).toBe(200);
  });

  it('limits e-mail change requests to 5 per user per hour (429 naming email), whatever the address', async () => {
    const here = await signedInUser(t, 'prober@acme.test', 'Probing Bakery');
    for (let i = 0; i < 5; i += 1) {
      const response = await change(here.accessToken, {
        current_password: 'correct horse',
        email: `p${i}@acme.test`,
      });
      expect(response.statusCode).toBe(200);
    }
    const refused = await change(here.accessToken, {
      current_password: 'correct horse',
      email: 'p9@acme.test',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0].field).toBe('email');
    expect(mailsTo('p9@acme.test')).toHaveLength(0);
  });

  it('answers 400 naming the field for a short new password, a bad e-mail, nothing to change or no current password', async () => {
    const here = await signedInUser(t, 'rules@acme.test', 'Rules Bakery');
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { current_password: 'correct horse', new_password: 'short' },
        'new_password',
        'Password must be at least 8 characters long.',
      ],
      [
        { current_password: 'correct horse', email: 'not-an-email' },
        'email',
        'Please enter a valid email address.',
      ],
      [{ current_password: 'correct horse' }, 'email', 'Enter a new email or a new password'],
      [{ new_password: 'battery staple' }, 'current_password', ''],
    ];
    for (const [payload, field, message] of cases) {
      const response = await change(here.accessToken, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const error = (response.json() as { errors: Array<{ field: string; message: string }> }).errors[0]!;
      expect(error.field).toBe(field);
      if (message) expect(error.message).toBe(message);
    }
  });

  it('stores the new password hashed with argon2id, as sign-up does', async () => {
    const here = await signedInUser(t, 'hash@acme.test', 'Hash Bakery');
    await change(here.accessToken, { current_password: 'correct horse', new_password: 'battery staple' });
    const { rows } = await t.db.pool.query('select password_hash from users where email = $1', [
      'hash@acme.test',
    ]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].password_hash).not.toContain('battery staple');
  });

  it('limits wrong current passwords to 10 per user per 15 minutes (429 naming current_password)', async () => {
    const here = await signedInUser(t, 'guesser@acme.test', 'Guessing Bakery');
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const response = await change(here.accessToken, {
        current_password: `guess ${attempt}`,
        new_password: 'battery staple',
      });
      expect(response.statusCode).toBe(400);
    }
    const refused = await change(here.accessToken, {
      current_password: 'correct horse',
      new_password: 'battery staple',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0].field).toBe('current_password');
    // Signing in is counted apart: the guesses did not lock the user out.
    expect((await login(t.app, 'guesser@acme.test', 'correct horse')).statusCode).toBe(200);
  });

  it('refuses a new e-mail with 400 naming email when no mail server is set, changing nothing', async () => {
    const bare = await startTestApp();
    try {
      const here = await signedInUser(bare, 'no-smtp@acme.test', 'No Mail Bakery');
      const response = await bare.app.inject({
        method: 'PUT',
        url: '/api/auth/account/',
        headers: bearer(here.accessToken),
        payload: {
          current_password: 'correct horse',
          email: 'elsewhere@acme.test',
          new_password: 'battery staple',
        },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0]).toEqual({ field: 'email', message: NO_MAIL_SERVER });
      expect((await login(bare.app, 'no-smtp@acme.test', 'correct horse')).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });

  it('answers 401 without a session', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/account/',
      payload: { current_password: 'x', new_password: 'battery staple' },
    });
    expect(response.statusCode).toBe(401);
  });
});
