import type { SandboxSnapshot } from '@herald/cloud-sim';
import { UNSAFE_TEXT_RULE } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { contactsUser, importCsv, multipart } from '../features/contacts/contacts-test-helpers';
import { insertTemplate } from '../features/templates/templates-repo';
import { PNG, templateMultipart } from '../features/templates/templates-test-helpers';
import { signBody } from '../features/webhooks/signature';

// Every place a client's text comes in answers 400 naming the field for a NUL or a lone
// surrogate, and nothing is written (here or at Meta).

let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;

beforeAll(async () => {
  t = await startTestApp();
  const user = await contactsUser(t, 'guard@acme.test');
  headers = user.headers;
  wabaId = user.business.waba_id;
});
afterAll(() => t.close());

function expectRefused(response: { statusCode: number; json(): unknown }, field: string) {
  expect(response.statusCode).toBe(400);
  const body = response.json() as { detail: string; message: string; errors: Array<{ field: string }> };
  expect(body.errors).toEqual([{ field, message: expect.stringContaining(UNSAFE_TEXT_RULE) }]);
  expect(body.detail).toContain(field);
  expect(body.message).toBe(body.detail);
}

async function counts() {
  const { rows } = await t.db.pool.query<{ contacts: number; tags: number; templates: number }>(
    `select (select count(*) from contacts)::int as contacts, (select count(*) from tags)::int as tags,
            (select count(*) from templates)::int as templates`,
  );
  return rows[0]!;
}

async function sandboxTemplates() {
  const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
  return state.templates;
}

function textTemplate(name: string) {
  return {
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Your order is ready.' }],
  };
}

describe('JSON body', () => {
  it('refuses a NUL in a field, naming body.<field>; nothing is stored', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recipient/create/',
      headers,
      payload: { customer_name: 'Ann\u0000', whatsapp_number: '+14155550100' },
    });
    expectRefused(response, 'body.customer_name');
    expect((await counts()).contacts).toBe(0);
  });

  it('refuses a lone surrogate sent as a JSON escape, deep in the body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name":"ok","audience":{"tag_ids":["\\ud800"]}}',
    });
    expectRefused(response, 'body.audience.tag_ids.0');
  });

  it('refuses a NUL in a key', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/meta/customer/',
      headers,
      payload: { id: 1, ['na\u0000me']: 'x' },
    });
    expectRefused(response, 'body.na\\u0000me');
  });

  it('refuses a template payload with a NUL before calling Meta', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: textTemplate('nul_\u0000name'),
    });
    expectRefused(response, 'body.name');
    expect(await sandboxTemplates()).toEqual([]);
  });
});

describe('query, path and headers', () => {
  it('answers a path that is not percent-encoded UTF-8 (an encoded lone surrogate) 400 naming path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/templates/%ED%A0%80/', headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'path' }] });
  });

  it('answers a path parameter past 100 characters 414 naming path', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/meta/templates/${'9'.repeat(200)}/`,
      headers,
    });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toMatchObject({ errors: [{ field: 'path' }] });
  });

  it('refuses %00 in a query parameter, naming query.<name>', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/recipient/create/?search=%00', headers });
    expectRefused(response, 'query.search');
  });

  it('refuses %00 in a path parameter, naming params.<name>', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/broadcast/1/pa%00use/', headers });
    expectRefused(response, 'params.action');
  });

  it('refuses a NUL in a header before the account scope reads it, naming headers.<name>', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/recipient/tags/',
      headers: { ...headers, 'x-waba-id': `${wabaId}\u0000` },
    });
    expectRefused(response, 'headers.x-waba-id');
  });
});

describe('contact import (multipart)', () => {
  const HEADER = 'name,number,email\n';

  it('refuses a CSV cell with a NUL, naming the row and column; the import stays all-or-nothing', async () => {
    const csv = `${HEADER}Ann,+14155550101,ann@example.com\nBob,+14155550102,b\u0000b@example.com\n`;
    const response = await importCsv(t, headers, csv, { tag: 'nul' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: '1 row is invalid; nothing was imported',
      message: {
        errors: [
          {
            row: 3,
            errors: [`email ${UNSAFE_TEXT_RULE}`],
          },
        ],
      },
    });
    expect(await counts()).toMatchObject({ contacts: 0, tags: 0 });
  });

  it('refuses a header cell with a NUL, naming its column', async () => {
    const response = await importCsv(t, headers, 'name,number,no\u0000te\nAnn,+14155550101,x\n');
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toEqual([{ row: 1, errors: [`column 3 ${UNSAFE_TEXT_RULE}`] }]);
  });

  it('answers 400 naming row 1 for a stray quote on the first line (was a 500, found by the fuzz)', async () => {
    const response = await importCsv(t, headers, '{"constructor":{"prototype":{"polluted":true}}}\n');
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toEqual([
      { row: 1, errors: ['A " appears inside a value that is not quoted'] },
    ]);
  });

  it('refuses a tag with a NUL, naming tag, before or after the file', async () => {
    const csv = `${HEADER}Ann,+14155550101,ann@example.com\n`;
    expectRefused(await importCsv(t, headers, csv, { tag: 'sale\u0000' }), 'tag');
    expectRefused(await importCsv(t, headers, csv, { tag: 'sale\u0000', tagLast: true }), 'tag');
    expect(await counts()).toMatchObject({ contacts: 0, tags: 0 });
  });

  it('refuses a file name with a NUL, naming file.filename', async () => {
    const csv = `${HEADER}Ann,+14155550101,ann@example.com\n`;
    expectRefused(await importCsv(t, headers, csv, { filename: 'a\u0000.csv' }), 'file.filename');
    expect((await counts()).contacts).toBe(0);
  });
});

describe('template multipart', () => {
  function post(body: { payload: Buffer; headers: Record<string, string> }) {
    return t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  }

  it('refuses template_data holding an escaped NUL, naming template_data.<field>, before calling Meta', async () => {
    const body = multipart([
      { name: 'template_data', value: JSON.stringify(textTemplate('x')).replace('"x"', '"x\\u0000"') },
    ]);
    expectRefused(await post(body), 'template_data.name');
    expect(await sandboxTemplates()).toEqual([]);
  });

  it('refuses a header file whose name holds a NUL, naming header_file.filename', async () => {
    const payload = {
      ...textTemplate('with_image'),
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Your order is ready.' },
      ],
    };
    const body = templateMultipart(payload, { name: 'a\u0000.png', type: 'image/png', bytes: PNG });
    expectRefused(await post(body), 'header_file.filename');
    expect(await sandboxTemplates()).toEqual([]);
    expect((await counts()).templates).toBe(0);
  });
});

describe('malformed multipart bodies', () => {
  it.each(['/recipient/import/', '/meta/templates/'])(
    'answer 400 naming body at %s when multipart has no boundary (was a 500, found by the fuzz)',
    async (url) => {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'multipart/form-data' },
        payload: 'name,number\nAnn,1',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'body', message: expect.stringContaining('multipart body is malformed') },
      ]);
    },
  );

  it.each(['/recipient/import/', '/meta/templates/'])(
    'answer 400 naming a field at %s for a body cut short',
    async (url) => {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
        payload: '--xyz\r\nContent-Disposition: form-data; name="tag"\r\n\r\nvi',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: expect.any(String), message: expect.any(String) }]);
    },
  );
});

describe('webhooks', () => {
  const url = '/webhooks/whatsapp';
  const body =
    '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"x","value":{"t":"\\u0000"}}]}]}';

  it('still checks the signature first: an unsigned body with a NUL is 401', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
      payload: body,
    });
    expect(response.statusCode).toBe(401);
  });

  it('answers 400 naming the field of a signed body jsonb cannot hold', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signBody(t.config.META_APP_SECRET, body),
      },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'body.entry.0.changes.0.value.t', message: expect.any(String) },
    ]);
  });
});

describe('a request that fails after Meta accepted the template', () => {
  it('deletes the template at Meta again: a local draft holds the name, so the local write fails (409)', async () => {
    const { rows } = await t.db.pool.query<{ id: number }>(
      'select id::int from waba_accounts where waba_id = $1',
      [wabaId],
    );
    const template = textTemplate('spring_sale');
    await insertTemplate(t.db.pool, rows[0]!.id, {
      ...template,
      status: 'DRAFT',
      metaTemplateId: null,
      staticVariables: {},
      dynamicVariables: {},
      mediaId: null,
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: template,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors).toEqual([{ field: 'name', message: expect.any(String) }]);
    expect(await sandboxTemplates()).toEqual([]);
  });
});
