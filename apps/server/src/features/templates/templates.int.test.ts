import type { SandboxSnapshot } from '@herald/cloud-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../../../../test-support/test-config';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { signBody } from '../webhooks/signature';
import { PNG, templateMultipart } from './templates-test-helpers';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  // Listen for real, so the sandbox's signed review webhooks reach this app.
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await fetch(`${t.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${address}/webhooks/whatsapp`, review_delay_ms: 300 }),
  });
  owner = await signedInUser(t, 'templates@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
});
afterAll(() => t.close());

function textTemplate(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is ready.' },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.test/t/{{1}}', example: ['abc'] }],
      },
    ],
    static_variables: { header_variable: [{ '1': 'friend' }], body_variable: [{ '2': 'A-100' }] },
    dynamic_variables: { body_variable: { '1': 'name' } },
    ...overrides,
  };
}

async function create(payload: unknown, file?: { name: string; type: string; bytes: Buffer }) {
  const body = templateMultipart(payload, file);
  return t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

async function sandboxSnapshot(): Promise<SandboxSnapshot> {
  return (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
}

async function waitForStatus(id: number, status: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const detail = (await t.app.inject({ method: 'GET', url: `/meta/templates/${id}/`, headers })).json();
    if (detail.status === status || Date.now() > deadline) return detail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('POST /meta/templates/', () => {
  it('creates at the Cloud API as PENDING; the sandbox’s signed webhook then approves it', async () => {
    const response = await create(textTemplate('order_ready'));
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      template_name: 'order_ready',
      status: 'PENDING',
      language_code: 'en_US',
    });
    expect(created.template_id).toMatch(/^\d+$/);
    const approved = await waitForStatus(created.id, 'APPROVED');
    expect(approved.status).toBe('APPROVED');

    // Meta got the examples it reviews with: the static value and the dynamic column's sample.
    const state = await sandboxSnapshot();
    const atMeta = state.templates.find((tpl: { id: string }) => tpl.id === created.template_id);
    expect(JSON.stringify(atMeta?.components)).toContain('A-100');
  });

  it('records a rejection and its reason from the webhook', async () => {
    const created = (await create(textTemplate('promo_reject_scam'))).json();
    const rejected = await waitForStatus(created.id, 'REJECTED');
    expect(rejected).toMatchObject({ status: 'REJECTED', rejected_reason: 'SCAM' });
  });

  it('uploads an image header through the resumable upload and serves it to its owner only', async () => {
    const payload = textTemplate('picture_sale', {
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Our sale starts now.' },
      ],
      static_variables: {},
      dynamic_variables: {},
    });
    const response = await create(payload, { name: 'sale.png', type: 'image/png', bytes: PNG });
    expect(response.statusCode).toBe(201);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${response.json().id}/`, headers })
    ).json();
    expect(detail.media_url).toMatch(/^\/meta\/templates\/media\/\d+\/$/);
    const media = await t.app.inject({ method: 'GET', url: detail.media_url, headers });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(media.rawPayload, PNG)).toBe(0);
    const state = await sandboxSnapshot();
    expect(
      state.uploads.some(
        (u: { file_length?: number; size?: number }) => (u.file_length ?? u.size) === PNG.length,
      ),
    ).toBe(true);

    const stranger = await signedInUser(t, 'stranger-media@acme.test');
    const foreign = await t.app.inject({
      method: 'GET',
      url: detail.media_url,
      headers: { authorization: `Bearer ${stranger.accessToken}` },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it.each([
    ['a wrong media type', { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('hello') }, 400],
    [
      'an image over 5 MB',
      { name: 'huge.png', type: 'image/png', bytes: Buffer.alloc(5 * 1024 * 1024 + 1) },
      413,
    ],
  ])('refuses %s naming header_file', async (_label, file, status) => {
    const payload = textTemplate('media_check', {
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Look.' },
      ],
      static_variables: {},
      dynamic_variables: {},
    });
    const response = await create(payload, file);
    expect(response.statusCode).toBe(status);
    expect(response.json().errors[0].field).toBe('header_file');
  });

  it('refuses 11 body variables, 3 URL buttons and a bad name, naming each field, storing nothing', async () => {
    const before = (await t.db.pool.query('select count(*)::int as n from templates')).rows[0].n;
    const eleven = Array.from({ length: 11 }, (_, i) => `{{${i + 1}}}`).join(' ');
    const tooMany = await create(
      textTemplate('too_many', {
        components: [{ type: 'BODY', text: eleven }],
        static_variables: {
          body_variable: [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i + 1), 'x']))],
        },
        dynamic_variables: {},
      }),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(
      tooMany
        .json()
        .errors.map((e: { field: string }) => e.field)
        .join(),
    ).toMatch(/body/);

    const url = (n: number) => ({ type: 'URL', text: `Link ${n}`, url: `https://shop.test/${n}` });
    const buttons = await create(
      textTemplate('three_urls', {
        components: [
          { type: 'BODY', text: 'Links' },
          { type: 'BUTTONS', buttons: [url(1), url(2), url(3)] },
        ],
        static_variables: {},
        dynamic_variables: {},
      }),
    );
    expect(buttons.statusCode).toBe(400);
    expect(buttons.json().errors.map((e: { message: string }) => e.message)).toContain(
      'Maximum 2 URL buttons allowed',
    );

    const badName = await create(textTemplate('Bad Name!'));
    expect(badName.statusCode).toBe(400);
    expect(badName.json().errors[0].field).toBe('name');

    const noData = await t.app.inject({ method: 'POST', url: '/meta/templates/', headers, payload: {} });
    expect(noData.statusCode).toBe(400);
    expect((await t.db.pool.query('select count(*)::int as n from templates')).rows[0].n).toBe(before);
  });

  it('answers 409 for a name and language already used', async () => {
    expect((await create(textTemplate('twice'))).statusCode).toBe(201);
    const again = await create(textTemplate('twice'));
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('WhatsApp Cloud API');
  });

  it('keeps the template as a DRAFT when the Cloud API is unreachable; Submit sends it later', async () => {
    const offline = await buildApp({
      config: testConfig({
        GRAPH_API_BASE: 'http://127.0.0.1:1',
        JWT_SECRET: t.config.JWT_SECRET!,
        ENCRYPTION_KEY: t.config.ENCRYPTION_KEY!,
        WEB_DIST_DIR: '/nonexistent',
      }),
      pool: t.db.pool,
      logger: false,
    });
    try {
      const body = templateMultipart(textTemplate('while_offline'));
      const response = await offline.inject({
        method: 'POST',
        url: '/meta/templates/',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'DRAFT', template_id: null });
      const submitted = await t.app.inject({
        method: 'POST',
        url: `/meta/templates/${response.json().id}/submit/`,
        headers,
      });
      expect(submitted.statusCode).toBe(200);
      expect(submitted.json()).toMatchObject({
        status: 'PENDING',
        template_id: expect.stringMatching(/^\d+$/),
      });
      const twice = await t.app.inject({
        method: 'POST',
        url: `/meta/templates/${response.json().id}/submit/`,
        headers,
      });
      expect(twice.statusCode).toBe(409);
    } finally {
      await offline.close();
    }
  });
});

describe('GET /meta/templates/', () => {
  it('pages, searches and sorts, with absolute next links', async () => {
    const page = (
      await t.app.inject({ method: 'GET', url: '/meta/templates/?page_size=2&sort=name', headers })
    ).json();
    expect(page.count).toBeGreaterThanOrEqual(4);
    expect(page.currentPage).toBe(1);
    expect(page.results).toHaveLength(2);
    expect(page.next).toMatch(/^http:\/\/.+\/meta\/templates\/\?.*page=2/);
    const names = page.results.map((r: { template_name: string }) => r.template_name);
    expect([...names].sort()).toEqual(names);
    const found = (
      await t.app.inject({ method: 'GET', url: '/meta/templates/?search=ORDER', headers })
    ).json();
    expect(found.results.map((r: { template_name: string }) => r.template_name)).toEqual(['order_ready']);
    const bad = await t.app.inject({ method: 'GET', url: '/meta/templates/?sort=random', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('sort');
  });
});

describe('PUT and DELETE /meta/templates/', () => {
  it('edits an approved template at the Cloud API, which sends it back to review', async () => {
    const created = (await create(textTemplate('to_edit'))).json();
    await waitForStatus(created.id, 'APPROVED');
    const edited = textTemplate('to_edit', {
      components: [{ type: 'BODY', text: 'New words for {{1}}.' }],
      static_variables: {},
      dynamic_variables: { body_variable: { '1': 'name' } },
    });
    const body = templateMultipart(edited);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/meta/templates/${created.id}/`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('PENDING');
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })
    ).json();
    expect(detail.components).toEqual([{ type: 'BODY', text: 'New words for {{1}}.' }]);
  });

  it('shows Meta’s refusal to edit a template still in review', async () => {
    await fetch(`${t.sandboxUrl}/__sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ review_delay_ms: 60_000 }),
    });
    const created = (await create(textTemplate('still_pending'))).json();
    const body = templateMultipart(textTemplate('still_pending'));
    const response = await t.app.inject({
      method: 'PUT',
      url: `/meta/templates/${created.id}/`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^WhatsApp Cloud API: /);
    await fetch(`${t.sandboxUrl}/__sandbox/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ review_delay_ms: 300 }),
    });
  });

  it('deletes at the Cloud API and here; an unknown or foreign id is 404', async () => {
    const created = (await create(textTemplate('to_delete'))).json();
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/meta/templates/',
      headers,
      payload: { template_id: created.template_id, template_name: 'to_delete' },
    });
    expect(response.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })).statusCode,
    ).toBe(404);
    const state = await sandboxSnapshot();
    expect(state.templates.some((tpl: { id: string }) => tpl.id === created.template_id)).toBe(false);

    const stranger = await signedInUser(t, 'stranger-delete@acme.test');
    const mine = (await create(textTemplate('not_yours'))).json();
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: '/meta/templates/',
      headers: { authorization: `Bearer ${stranger.accessToken}` },
      payload: { template_id: mine.template_id, template_name: 'not_yours' },
    });
    expect(foreign.statusCode).toBe(404);
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/meta/templates/',
      headers,
      payload: { template_name: 'x' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('template_id');
  });
});

describe('template status webhooks', () => {
  async function deliver(value: object, wabaId = owner.business.waba_id, secret = t.config.META_APP_SECRET) {
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, time: 1, changes: [{ field: 'message_template_status_update', value }] }],
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(secret, body) },
      payload: body,
    });
    await t.app.webhooks.idle();
    return response;
  }

  it('applies PAUSED, ignores duplicates and refuses a bad signature', async () => {
    const created = (await create(textTemplate('webhook_target'))).json();
    await waitForStatus(created.id, 'APPROVED');
    const update = {
      event: 'PAUSED',
      message_template_id: Number(created.template_id),
      message_template_name: 'webhook_target',
      message_template_language: 'en_US',
      reason: null,
    };
    expect((await deliver(update)).statusCode).toBe(200);
    expect((await deliver(update)).statusCode).toBe(200);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })
    ).json();
    expect(detail.status).toBe('PAUSED');

    expect(
      (await deliver({ ...update, event: 'APPROVED' }, owner.business.waba_id, 'forged-secret')).statusCode,
    ).toBe(401);
    const still = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })
    ).json();
    expect(still.status).toBe('PAUSED');
  });

  it('cannot touch another account’s template', async () => {
    const created = (await create(textTemplate('cross_account'))).json();
    await waitForStatus(created.id, 'APPROVED');
    await deliver(
      { event: 'DISABLED', message_template_id: Number(created.template_id), reason: null },
      '999999999999999',
    );
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })
    ).json();
    expect(detail.status).toBe('APPROVED');
  });
});
