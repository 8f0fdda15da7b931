import { DEFAULT_ACCOUNT_SETTINGS } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { sandboxBusiness, signedInUser } from '../auth/auth-test-helpers';

let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;
/** Alice's second account, linked to the same user: settings belong to the account, not the user. */
let aliceSecondWaba: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await signedInUser(t, 'alice-settings@acme.test', 'Alice Shop');
  bob = await signedInUser(t, 'bob-settings@acme.test', 'Bob Shop');
  const second = await sandboxBusiness(t.sandboxUrl, 'Alice Second Shop');
  const linked = await t.app.inject({
    method: 'PUT',
    url: '/api/auth/facebook/callback/',
    headers: { authorization: `Bearer ${alice.accessToken}` },
    payload: {
      payload: {
        code: second.code,
        account_data: { waba_id: second.waba_id, phone_number_id: second.phone_number_id },
      },
    },
  });
  if (linked.statusCode !== 200) throw new Error(`second account: ${linked.body}`);
  aliceSecondWaba = second.waba_id;
});
afterAll(() => t.close());

function headersOf(user: { accessToken: string }, wabaId: string) {
  return { authorization: `Bearer ${user.accessToken}`, 'x-waba-id': wabaId };
}

function read(user: { accessToken: string }, wabaId: string) {
  return t.app.inject({ method: 'GET', url: '/settings/', headers: headersOf(user, wabaId) });
}

function save(user: { accessToken: string }, wabaId: string, payload: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: '/settings/',
    headers: headersOf(user, wabaId),
    payload: payload as Record<string, unknown>,
  });
}

describe('GET /settings/', () => {
  it('answers the defaults for an account that never saved any, with its waba_id and no mail server', async () => {
    const response = await read(bob, bob.business.waba_id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      waba_id: bob.business.waba_id,
      settings: DEFAULT_ACCOUNT_SETTINGS,
      mail_server_configured: false,
    });
  });

  it('says a mail server is configured when SMTP_URL is set', async () => {
    const withMail = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:2525' });
    try {
      const user = await signedInUser(withMail, 'mail-settings@acme.test');
      const response = await withMail.app.inject({
        method: 'GET',
        url: '/settings/',
        headers: headersOf(user, user.business.waba_id),
      });
      expect(response.json().mail_server_configured).toBe(true);
    } finally {
      await withMail.close();
    }
  });
});

describe('PUT /settings/', () => {
  it('stores what is sent, keeps the rest, answers the whole and reads it back', async () => {
    const first = await save(alice, alice.business.waba_id, { default_language: 'fr', dark_theme: true });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      waba_id: alice.business.waba_id,
      settings: { ...DEFAULT_ACCOUNT_SETTINGS, default_language: 'fr', dark_theme: true },
      mail_server_configured: false,
    });

    const second = await save(alice, alice.business.waba_id, {
      require_template_approval: true,
      notify_by_email: true,
      retention_years: 1,
      beta_features: true,
      marketing_via_mm_api: false,
      frequency_cap_messages: 3,
      frequency_cap_days: 14,
    });
    const everything = {
      default_language: 'fr',
      require_template_approval: true,
      notify_by_email: true,
      retention_years: 1,
      dark_theme: true,
      beta_features: true,
      marketing_via_mm_api: false,
      frequency_cap_messages: 3,
      frequency_cap_days: 14,
      opt_out_words: DEFAULT_ACCOUNT_SETTINGS.opt_out_words,
      opt_in_words: DEFAULT_ACCOUNT_SETTINGS.opt_in_words,
    };
    expect(second.json().settings).toEqual(everything);
    expect((await read(alice, alice.business.waba_id)).json().settings).toEqual(everything);

    const off = await save(alice, alice.business.waba_id, { dark_theme: false, retention_years: 3 });
    expect(off.json().settings).toEqual({ ...everything, dark_theme: false, retention_years: 3 });

    const words = await save(alice, alice.business.waba_id, { opt_out_words: [' Basta ', 'stop'] });
    expect(words.json().settings).toMatchObject({
      opt_out_words: ['Basta', 'stop'],
      opt_in_words: DEFAULT_ACCOUNT_SETTINGS.opt_in_words,
    });
    expect((await read(alice, alice.business.waba_id)).json().settings.opt_out_words).toEqual([
      'Basta',
      'stop',
    ]);
  });

  it.each([
    [{ default_language: 'en-US' }, 'default_language'],
    [{ default_language: 'tlh' }, 'default_language'],
    [{ retention_years: 2 }, 'retention_years'],
    [{ retention_years: '5' }, 'retention_years'],
    [{ dark_theme: 'yes' }, 'dark_theme'],
    [{ beta_features: null }, 'beta_features'],
  ])('refuses %j with 400 naming %s, storing nothing', async (payload, field) => {
    const before = (await read(bob, bob.business.waba_id)).json();
    const response = await save(bob, bob.business.waba_id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([expect.objectContaining({ field })]);
    expect(response.json().detail).toContain(field);
    expect((await read(bob, bob.business.waba_id)).json()).toEqual(before);
  });

  it('refuses reply words that are empty, too long, missing or in both lists, naming the list', async () => {
    const cases: Array<[object, string]> = [
      [{ opt_out_words: [] }, 'opt_out_words'],
      [{ opt_out_words: ['stop', ' '] }, 'opt_out_words'],
      [{ opt_out_words: ['x'.repeat(41)] }, 'opt_out_words'],
      [{ opt_in_words: Array.from({ length: 31 }, (_, i) => `w${i}`) }, 'opt_in_words'],
      [{ opt_out_words: ['stop', 'Arrêt'], opt_in_words: ['ARRET'] }, 'opt_in_words'],
    ];
    const before = (await read(bob, bob.business.waba_id)).json();
    for (const [payload, field] of cases) {
      const response = await save(bob, bob.business.waba_id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors[0].field).toMatch(new RegExp(`^${field}(\\.\\d+)?$`));
      expect(response.json().detail).toContain(field);
    }
    expect((await read(bob, bob.business.waba_id)).json()).toEqual(before);
  });

  it('refuses a misspelt option by its name instead of ignoring it', async () => {
    const response = await save(bob, bob.business.waba_id, { darkTheme: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain('darkTheme');
  });

  it('refuses a body that is not an object with 400', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/settings/',
      headers: { ...headersOf(bob, bob.business.waba_id), 'content-type': 'application/json' },
      payload: '[true]',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe("the header's appearance (every screen's read)", () => {
  it('carries the saved dark theme and beta features of the selected account only', async () => {
    const header = async (user: { accessToken: string }, wabaId: string) =>
      (
        await t.app.inject({ method: 'GET', url: '/dashboard/header', headers: headersOf(user, wabaId) })
      ).json().appearance;
    await save(alice, aliceSecondWaba, { dark_theme: false, beta_features: false });
    await save(alice, alice.business.waba_id, { dark_theme: true, beta_features: true });
    expect(await header(alice, alice.business.waba_id)).toEqual({ dark_theme: true, beta_features: true });
    expect(await header(alice, aliceSecondWaba)).toEqual({ dark_theme: false, beta_features: false });
    await save(alice, alice.business.waba_id, { dark_theme: false });
    expect(await header(alice, alice.business.waba_id)).toEqual({ dark_theme: false, beta_features: true });
  });
});

describe('settings are scoped to the business account', () => {
  it("another user can neither read nor change an account's settings (403), which stay as they were", async () => {
    await save(alice, alice.business.waba_id, { beta_features: true, default_language: 'es' });
    const stored = (await read(alice, alice.business.waba_id)).json();

    const foreignRead = await read(bob, alice.business.waba_id);
    expect(foreignRead.statusCode).toBe(403);
    expect(foreignRead.body).not.toContain('"settings"');
    const foreignSave = await save(bob, alice.business.waba_id, { default_language: 'en_US' });
    expect(foreignSave.statusCode).toBe(403);

    // Bob's own save changes Bob's account only.
    const own = await save(bob, bob.business.waba_id, { default_language: 'fr', beta_features: false });
    expect(own.json().settings.default_language).toBe('fr');
    expect((await read(alice, alice.business.waba_id)).json()).toEqual(stored);
  });

  it("one user's two accounts keep their own settings", async () => {
    await save(alice, alice.business.waba_id, { dark_theme: true });
    await save(alice, aliceSecondWaba, { dark_theme: false, default_language: 'es' });
    expect((await read(alice, alice.business.waba_id)).json().settings.dark_theme).toBe(true);
    const second = (await read(alice, aliceSecondWaba)).json();
    expect(second.waba_id).toBe(aliceSecondWaba);
    expect(second.settings).toMatchObject({ dark_theme: false, default_language: 'es' });
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/settings/' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/settings/', payload: { dark_theme: true } })).statusCode,
    ).toBe(401);
  });
});
