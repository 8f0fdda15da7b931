import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

const sim = sandboxForFile('templates');
let account: SignedUp;

beforeEach(async () => {
  account = await signUpWithToken(sim.url, {
    business_name: "Jasper's Market",
    phone_number: '+1 631 555 5555',
  });
});

function template(overrides: Record<string, unknown> = {}) {
  return {
    name: 'order_update',
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#123'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order ships {{2}}.',
        example: { body_text: [['Ana', 'Friday']] },
      },
      { type: 'FOOTER', text: 'Thanks for shopping' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Track', url: 'https://ex.com/t/{{1}}', example: ['abc'] }],
      },
    ],
    ...overrides,
  };
}

const create = (json: unknown, token = account.token, waba = account.waba_id) =>
  call(sim.url, `/v21.0/${waba}/message_templates`, { method: 'POST', token, json });

const force = (id: string, status: string, reason?: string) =>
  call(sim.url, `/__sandbox/templates/${id}/review`, { method: 'POST', json: { status, reason } });

function expectTemplateError(
  res: { status: number; body: { error: Record<string, unknown> } },
  subcode?: number,
) {
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({
    message: 'Invalid parameter',
    type: 'OAuthException',
    code: 100,
    is_transient: false,
    error_user_title: expect.any(String),
    error_user_msg: expect.any(String),
    fbtrace_id: expect.any(String),
  });
  if (subcode !== undefined) expect(res.body.error.error_subcode).toBe(subcode);
}

describe('POST /{waba-id}/message_templates', () => {
  it('creates a PENDING template and answers {id, status, category}', async () => {
    const res = await create(template());
    expect(res).toEqual({
      status: 200,
      body: { id: expect.stringMatching(/^[1-9]\d{14}$/), status: 'PENDING', category: 'UTILITY' },
    });
    const state = (await call(sim.url, '/__sandbox/state')).body;
    expect(state.templates).toEqual([
      expect.objectContaining({
        id: res.body.id,
        waba_id: account.waba_id,
        name: 'order_update',
        status: 'PENDING',
      }),
    ]);
    expect(state.pending_reviews).toEqual([res.body.id]);
  });

  it('accepts a form-encoded call with components as a JSON string', async () => {
    const t = template();
    const res = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      form: {
        name: t.name,
        language: t.language,
        category: t.category,
        components: JSON.stringify(t.components),
      },
    });
    expect(res.body.status).toBe('PENDING');
  });

  it.each([
    ['a bad name', { name: 'Order-Update' }, undefined],
    [
      '11 variables',
      {
        components: [
          {
            type: 'BODY',
            text: Array.from({ length: 11 }, (_, i) => `x{{${i + 1}}}`).join(' '),
            example: { body_text: [Array.from({ length: 11 }, () => 'v')] },
          },
        ],
      },
      2388293,
    ],
    [
      'non-sequential variables',
      { components: [{ type: 'BODY', text: 'Hi {{1}} {{3}}', example: { body_text: [['a', 'b']] } }] },
      undefined,
    ],
    [
      '3 URL buttons',
      {
        components: [
          { type: 'BODY', text: 'Hi' },
          {
            type: 'BUTTONS',
            buttons: [1, 2, 3].map((n) => ({ type: 'URL', text: `Site ${n}`, url: 'https://ex.com' })),
          },
        ],
      },
      undefined,
    ],
    [
      '2 phone buttons',
      {
        components: [
          { type: 'BODY', text: 'Hi' },
          {
            type: 'BUTTONS',
            buttons: [1, 2].map(() => ({ type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001111' })),
          },
        ],
      },
      undefined,
    ],
    [
      'a long header',
      {
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'x'.repeat(61) },
          { type: 'BODY', text: 'Hi' },
        ],
      },
      2388040,
    ],
    ['a missing example', { components: [{ type: 'BODY', text: 'Hi {{1}}' }] }, 2388043],
    [
      'an unknown header handle',
      {
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::bm9wZQ==:never-uploaded'] } },
          { type: 'BODY', text: 'Hi' },
        ],
      },
      undefined,
    ],
  ])('refuses %s with code 100 and a user message', async (_label, overrides, subcode) => {
    const res = await create(template(overrides));
    expectTemplateError(res, subcode);
    expect((await call(sim.url, '/__sandbox/state')).body.templates).toEqual([]);
  });

  it('refuses an unknown category or language and a missing name', async () => {
    expect((await create(template({ category: 'PROMO' }))).body.error.code).toBe(100);
    expect((await create(template({ language: 'klingon' }))).body.error.error_user_title).toBe(
      'Invalid Language',
    );
    expect((await create(template({ name: undefined }))).body.error.message).toBe(
      '(#100) The parameter name is required.',
    );
  });

  it('refuses a duplicate name and language with subcode 2388024, but takes another language', async () => {
    await create(template());
    const res = await create(template());
    expectTemplateError(res, 2388024);
    expect(res.body.error.error_user_title).toBe('Content in This Language Already Exists');
    expect((await create(template({ language: 'es' }))).status).toBe(200);
  });

  it('refuses the 251st template name of a WABA, counting a name once across languages', async () => {
    for (let i = 0; i < 250; i++) {
      const res = await create({
        name: `t_${i}`,
        language: 'en',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'x' }],
      });
      expect(res.status).toBe(200);
    }
    const extra = await create(template({ name: 'one_too_many' }));
    expectTemplateError(extra, 2388019);
    expect(extra.body.error.error_user_title).toBe('Message Template Limit Reached');
    // A new language of an existing name is not a new name.
    const sameName = await create({
      name: 't_0',
      language: 'fr',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'x' }],
    });
    expect(sameName.status).toBe(200);
  });

  it("answers another WABA's token with 100/33 and a bad token with 190", async () => {
    const other = await signUpWithToken(sim.url, {
      business_name: 'Lucky Shrub',
      phone_number: '+44 7700 900123',
    });
    const res = await create(template(), other.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await create(template(), 'EAAnope')).body.error.code).toBe(190);
  });
});

describe('GET /{waba-id}/message_templates and /{template-id}', () => {
  it('lists newest first with fields=, filters by name and status, and pages with after', async () => {
    const ids: string[] = [];
    for (const name of ['alpha_one', 'beta_two', 'alpha_three'])
      ids.push((await create(template({ name }))).body.id);
    await force(ids[0] as string, 'APPROVED');
    const list = (q: string) =>
      call(sim.url, `/v21.0/${account.waba_id}/message_templates${q}`, { token: account.token });

    const all = await list('?fields=name,status');
    expect(all.body.data).toEqual([
      { id: ids[2], name: 'alpha_three', status: 'PENDING' },
      { id: ids[1], name: 'beta_two', status: 'PENDING' },
      { id: ids[0], name: 'alpha_one', status: 'APPROVED' },
    ]);
    expect(all.body.paging).not.toHaveProperty('next');

    expect((await list('?name=alpha&fields=name')).body.data.map((t: { name: string }) => t.name)).toEqual([
      'alpha_three',
      'alpha_one',
    ]);
    expect((await list('?status=APPROVED')).body.data.map((t: { id: string }) => t.id)).toEqual([ids[0]]);

    const first = await list('?limit=2&fields=name');
    expect(first.body.data).toHaveLength(2);
    expect(first.body.paging.next).toContain(`/v21.0/${account.waba_id}/message_templates?`);
    expect(first.body.paging.next).toContain(`after=${first.body.paging.cursors.after}`);
    const second = await list(`?limit=2&fields=name&after=${first.body.paging.cursors.after}`);
    expect(second.body.data).toEqual([{ id: ids[0], name: 'alpha_one' }]);
    expect(second.body.paging).not.toHaveProperty('next');
  });

  it('reads one template with every modelled field, and fields=', async () => {
    const id = (await create(template())).body.id;
    const res = await call(sim.url, `/v21.0/${id}`, { token: account.token });
    expect(res.body).toEqual({
      id,
      name: 'order_update',
      language: 'en_US',
      status: 'PENDING',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      components: template().components,
      rejected_reason: 'NONE',
      last_updated_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
    });
    await force(id, 'APPROVED');
    const some = await call(sim.url, `/v21.0/${id}?fields=status,quality_score`, { token: account.token });
    expect(some.body).toEqual({
      id,
      status: 'APPROVED',
      quality_score: { score: 'UNKNOWN', date: expect.any(Number) },
    });
  });

  it("hides another WABA's templates behind 100/33", async () => {
    const id = (await create(template())).body.id;
    const other = await signUpWithToken(sim.url, {
      business_name: 'Lucky Shrub',
      phone_number: '+44 7700 900123',
    });
    const res = await call(sim.url, `/v21.0/${id}`, { token: other.token });
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const list = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, { token: other.token });
    expect(list.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const edit = await call(sim.url, `/v21.0/${id}`, {
      method: 'POST',
      token: other.token,
      json: { components: [] },
    });
    expect(edit.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

describe('POST /{template-id} (edit)', () => {
  const newComponents = [
    { type: 'BODY', text: 'Your order {{1}} is on its way.', example: { body_text: [['#1']] } },
  ];
  const edit = (id: string, json: unknown) =>
    call(sim.url, `/v21.0/${id}`, { method: 'POST', token: account.token, json });

  it('refuses to edit a PENDING template', async () => {
    const id = (await create(template())).body.id;
    const res = await edit(id, { components: newComponents });
    expectTemplateError(res);
    expect(res.body.error.error_user_msg).toContain('PENDING');
  });

  it('edits an APPROVED template, replacing the components and putting it back to PENDING', async () => {
    const id = (await create(template())).body.id;
    await force(id, 'APPROVED');
    expect(await edit(id, { components: newComponents })).toEqual({ status: 200, body: { success: true } });
    const read = await call(sim.url, `/v21.0/${id}?fields=status,components`, { token: account.token });
    expect(read.body).toEqual({ id, status: 'PENDING', components: newComponents });
    expect((await call(sim.url, '/__sandbox/state')).body.pending_reviews).toEqual([id]);
  });

  it("edits a REJECTED template's category, but not an APPROVED one's, and never its name", async () => {
    const id = (await create(template())).body.id;
    await force(id, 'REJECTED', 'INCORRECT_CATEGORY');
    expect((await edit(id, { category: 'MARKETING' })).body).toEqual({ success: true });
    await force(id, 'APPROVED');
    expectTemplateError(await edit(id, { category: 'UTILITY' }));
    expectTemplateError(await edit(id, { name: 'renamed', components: newComponents }));
  });

  it('validates the new components like a creation', async () => {
    const id = (await create(template())).body.id;
    await force(id, 'PAUSED');
    expectTemplateError(await edit(id, { components: [{ type: 'BODY', text: 'Hi {{1}}' }] }), 2388043);
  });
});

describe('DELETE /{waba-id}/message_templates', () => {
  const del = (query: string) =>
    call(sim.url, `/v21.0/${account.waba_id}/message_templates?${query}`, {
      method: 'DELETE',
      token: account.token,
    });

  it('deletes every language of a name, or one by hsm_id', async () => {
    const en = (await create(template())).body.id;
    await create(template({ language: 'es' }));
    const keep = (await create(template({ name: 'keep_me' }))).body.id;
    const fr = (await create(template({ name: 'keep_me', language: 'fr' }))).body.id;

    expect(await del(`name=keep_me&hsm_id=${fr}`)).toEqual({ status: 200, body: { success: true } });
    expect(await del('name=order_update')).toEqual({ status: 200, body: { success: true } });
    const state = (await call(sim.url, '/__sandbox/state')).body;
    expect(state.templates.map((t: { id: string }) => t.id)).toEqual([keep]);
    expect(state.pending_reviews).toEqual([keep]);
    expect((await call(sim.url, `/v21.0/${en}`, { token: account.token })).body.error.error_subcode).toBe(33);
  });

  it('needs a name and answers an unknown one with code 100', async () => {
    expect((await del('')).body.error.message).toBe('(#100) The parameter name is required.');
    expectTemplateError(await del('name=nope'));
  });
});

describe('call log', () => {
  it('records creation, edit, forced review and deletion', async () => {
    const before = (await readFile(sim.logFile, 'utf8')).split('\n').filter(Boolean).length;
    const id = (await create(template())).body.id;
    await force(id, 'REJECTED');
    await call(sim.url, `/v21.0/${id}`, {
      method: 'POST',
      token: account.token,
      json: { category: 'MARKETING' },
    });
    await call(sim.url, `/v21.0/${account.waba_id}/message_templates?name=order_update`, {
      method: 'DELETE',
      token: account.token,
    });
    const lines = (await readFile(sim.logFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .slice(before)
      .map((l) => JSON.parse(l) as { method: string; path: string; result: Record<string, unknown> });
    expect(lines.map((l) => `${l.method} ${l.path}`)).toEqual([
      `POST /${account.waba_id}/message_templates`,
      `POST /__sandbox/templates/${id}/review`,
      `POST /${id}`,
      `DELETE /${account.waba_id}/message_templates`,
    ]);
    expect(lines[1]?.result).toEqual({ id, status: 'REJECTED', rejected_reason: 'INVALID_FORMAT' });
  });
});
