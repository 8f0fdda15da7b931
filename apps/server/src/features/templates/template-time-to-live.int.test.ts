import type { SandboxSnapshot } from '@herald/cloud-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { templateMultipart } from './templates-test-helpers';
import { createApprovedTemplate } from '../../../../../test-support/business';

// A marketing template's own time-to-live (Meta's message_send_ttl_seconds): sent to Meta on create and edit,
// kept and shown here; refused, naming the field, outside Meta's bounds or on another category.

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'ttl@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
});
afterAll(() => t.close());

const template = (name: string, overrides: Record<string, unknown> = {}) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Spring prices are here.' }],
  ...overrides,
});

async function send(method: 'POST' | 'PUT', url: string, payload: unknown) {
  const body = templateMultipart(payload);
  return t.app.inject({ method, url, headers: { ...headers, ...body.headers }, payload: body.payload });
}

async function atMeta(metaId: string) {
  const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
  return state.templates.find((tpl: { id: string }) => tpl.id === metaId) as
    { message_send_ttl_seconds?: number } | undefined;
}

const templateCount = async () =>
  (await t.app.inject({ method: 'GET', url: '/meta/templates/', headers })).json().count as number;

describe('a marketing template’s time-to-live', () => {
  it('is sent to Meta on create, kept, and shown in the list and the detail', async () => {
    const response = await send(
      'POST',
      '/meta/templates/',
      template('one_day_sale', { message_send_ttl_seconds: 86_400 }),
    );
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.message_send_ttl_seconds).toBe(86_400);
    expect((await atMeta(created.template_id))?.message_send_ttl_seconds).toBe(86_400);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers })
    ).json();
    expect(detail.message_send_ttl_seconds).toBe(86_400);

    // Without one, Meta's default applies: nothing is sent and nothing kept.
    const plain = (await send('POST', '/meta/templates/', template('no_ttl_sale'))).json();
    expect(plain.message_send_ttl_seconds).toBeNull();
    expect((await atMeta(plain.template_id))?.message_send_ttl_seconds).toBeUndefined();
  });

  it('changes at Meta with an edit, and back to Meta’s default when cleared', async () => {
    // Meta edits only a template it has reviewed.
    const id = await createApprovedTemplate(t, headers, template('edit_ttl_sale'));
    const created = (await t.app.inject({ method: 'GET', url: `/meta/templates/${id}/`, headers })).json();
    created.id = id;
    const edited = await send(
      'PUT',
      `/meta/templates/${created.id}/`,
      template('edit_ttl_sale', { message_send_ttl_seconds: 43_200 }),
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json().message_send_ttl_seconds).toBe(43_200);
    expect((await atMeta(created.template_id))?.message_send_ttl_seconds).toBe(43_200);

    // Meta edits only a template it has reviewed: wait for the edit's review.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await t.app.webhooks.idle();
      const detail = await t.app.inject({ method: 'GET', url: `/meta/templates/${created.id}/`, headers });
      if (detail.json().status === 'APPROVED') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cleared = await send('PUT', `/meta/templates/${created.id}/`, template('edit_ttl_sale'));
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().message_send_ttl_seconds).toBeNull();
    expect((await atMeta(created.template_id))?.message_send_ttl_seconds).toBe(2_592_000);
  });

  it('is refused outside Meta’s bounds or on a utility template, naming the field, storing nothing', async () => {
    const before = await templateCount();
    for (const [payload, message] of [
      [template('short_ttl', { message_send_ttl_seconds: 43_199 }), /from 43200 \(12 hours\) to 2592000/],
      [template('long_ttl', { message_send_ttl_seconds: 2_592_001 }), /from 43200 \(12 hours\) to 2592000/],
      [
        template('utility_ttl', { category: 'UTILITY', message_send_ttl_seconds: 86_400 }),
        /only a marketing template takes a time-to-live/,
      ],
    ] as const) {
      const response = await send('POST', '/meta/templates/', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/message_send_ttl_seconds/);
      expect(response.json().message).toMatch(message);
    }
    expect(await templateCount()).toBe(before);
  });
});
