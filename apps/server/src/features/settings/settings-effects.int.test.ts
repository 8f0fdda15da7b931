import type { SandboxSnapshot } from '@herald/cloud-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { PNG, templateMultipart } from '../templates/templates-test-helpers';

// Message Settings' two effects on NEW templates: the default language and the approval
// that keeps a new template a draft, both against the real sandbox Cloud API.

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
let alice: User;
let bob: User;

beforeAll(async () => {
  t = await startTestApp();
  alice = await signedInUser(t, 'alice-effects@acme.test', 'Alice Shop');
  bob = await signedInUser(t, 'bob-effects@acme.test', 'Bob Shop');
});
afterAll(() => t.close());

const headersOf = (user: User) => ({
  authorization: `Bearer ${user.accessToken}`,
  'x-waba-id': user.business.waba_id,
});

async function saveSettings(user: User, payload: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/settings/',
    headers: headersOf(user),
    payload,
  });
  expect(response.statusCode).toBe(200);
}

function template(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Our summer sale starts today.' }],
    static_variables: {},
    dynamic_variables: {},
    ...extra,
  };
}

function create(user: User, payload: unknown, file?: { name: string; type: string; bytes: Buffer }) {
  const body = templateMultipart(payload, file);
  return t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers: { ...headersOf(user), ...body.headers },
    payload: body.payload,
  });
}

async function atMeta(name: string) {
  const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
  return state.templates.filter((tpl) => tpl.name === name);
}

describe("Message Settings: 'Default Language'", () => {
  it('a new template sent without a language gets the account’s default language, here and at Meta', async () => {
    await saveSettings(alice, { default_language: 'es' });
    const response = await create(alice, template('oferta_verano'));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ language_code: 'es', status: 'PENDING' });
    expect((await atMeta('oferta_verano')).map((tpl) => tpl.language)).toEqual(['es']);
  });

  it('any template language Meta supports can be the default, beyond the spec’s three', async () => {
    await saveSettings(alice, { default_language: 'pt_BR' });
    const response = await create(alice, template('oferta_brasil'));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ language_code: 'pt_BR' });
    expect((await atMeta('oferta_brasil')).map((tpl) => tpl.language)).toEqual(['pt_BR']);
  });

  it('a language the request names is kept', async () => {
    await saveSettings(alice, { default_language: 'es' });
    const response = await create(alice, template('offre_ete', { language: 'fr' }));
    expect(response.json()).toMatchObject({ language_code: 'fr' });
  });

  it('an account that never saved settings gets English (en_US); another account’s default changes nothing', async () => {
    await saveSettings(alice, { default_language: 'fr' });
    const response = await create(bob, template('summer_offer'));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ language_code: 'en_US' });
  });
});

describe("Message Settings: 'Require Approval for New Templates'", () => {
  it('on: a new template is stored as a DRAFT and Meta sees nothing until Submit', async () => {
    await saveSettings(alice, { require_template_approval: true });
    const uploadsBefore = ((await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot)
      .uploads.length;
    const response = await create(
      alice,
      template('picture_needs_approval', {
        language: 'en_US',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Our sale starts now.' },
        ],
      }),
      { name: 'sale.png', type: 'image/png', bytes: PNG },
    );
    expect(response.statusCode).toBe(201);
    const draft = response.json();
    expect(draft).toMatchObject({ status: 'DRAFT', template_id: null });
    expect(await atMeta('picture_needs_approval')).toEqual([]);
    const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
    expect(state.uploads.length).toBe(uploadsBefore);

    // The draft is listed as such, with its stored header file.
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${draft.id}/`, headers: headersOf(alice) })
    ).json();
    expect(detail).toMatchObject({ status: 'DRAFT', template_id: null });
    expect(detail.media_url).toMatch(/^\/meta\/templates\/media\/\d+\/$/);

    // Someone presses Submit: now it goes to Meta for review, header file included.
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/meta/templates/${draft.id}/submit/`,
      headers: headersOf(alice),
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().status).toBe('PENDING');
    expect(submitted.json().template_id).toMatch(/^\d+$/);
    const sent = await atMeta('picture_needs_approval');
    expect(sent.map((tpl) => tpl.id)).toEqual([submitted.json().template_id]);
  });

  it('off: a new template goes to Meta at once; the setting of one account does not hold another’s', async () => {
    await saveSettings(alice, { require_template_approval: true });
    const bobs = await create(bob, template('bob_direct', { language: 'en_US' }));
    expect(bobs.json()).toMatchObject({ status: 'PENDING' });
    expect(await atMeta('bob_direct')).toHaveLength(1);

    await saveSettings(alice, { require_template_approval: false });
    const alices = await create(alice, template('alice_direct', { language: 'en_US' }));
    expect(alices.json()).toMatchObject({ status: 'PENDING' });
    expect(alices.json().template_id).toMatch(/^\d+$/);
    expect(await atMeta('alice_direct')).toHaveLength(1);
  });

  it('a draft kept for approval still refuses an invalid template, naming the field', async () => {
    await saveSettings(alice, { require_template_approval: true });
    const response = await create(alice, template('Bad Name!', { language: 'en_US' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'name' })]),
    );
  });
});
