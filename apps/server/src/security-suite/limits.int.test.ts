import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { contactsUser, importCsv } from '../features/contacts/contacts-test-helpers';
import { PNG, templateMultipart } from '../features/templates/templates-test-helpers';
import { imageTemplate } from './tenants';

/**
 * Body and upload limits answer 413 in the one error shape, naming the field, and store
 * nothing — a JSON body over the app's 1 MB bodyLimit, a template header over Meta's cap for its format,
 * and a contact CSV over IMPORT_MAX_BYTES (set small here).
 */

const MB = 1024 * 1024;
const IMPORT_MAX_BYTES = 2048;

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ IMPORT_MAX_BYTES: String(IMPORT_MAX_BYTES) });
  headers = (await contactsUser(t, 'limits@acme.test')).headers;
});
afterAll(() => t?.close());

/** Rows of every table an upload could write to, and what the sandbox holds, to prove nothing was stored. */
async function stored() {
  const { rows } = await t.db.pool.query<Record<string, number>>(
    `select (select count(*)::int from contacts) as contacts, (select count(*)::int from tags) as tags,
            (select count(*)::int from templates) as templates, (select count(*)::int from template_media) as media`,
  );
  const sandbox = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as {
    templates: unknown[];
    uploads: unknown[];
  };
  return { ...rows[0], sandboxTemplates: sandbox.templates.length, sandboxUploads: sandbox.uploads.length };
}

function expect413(response: { statusCode: number; json(): unknown }, field: string) {
  expect(response.statusCode).toBe(413);
  const body = response.json() as { detail: string; errors: Array<{ field: string; message: string }> };
  expect(body.detail).toEqual(expect.any(String));
  expect(body.errors).toEqual([{ field, message: body.detail }]);
}

describe('JSON bodies', () => {
  const contactOfSize = (bytes: number) => {
    const shell = JSON.stringify({ customer_name: '', whatsapp_number: '+14155550123' });
    return JSON.stringify({
      customer_name: 'x'.repeat(bytes - shell.length),
      whatsapp_number: '+14155550123',
    });
  };

  it('answers 413 naming body for a JSON body over 1 MB on a business route, storing nothing', async () => {
    const before = await stored();
    const payload = contactOfSize(MB + 1);
    expect(Buffer.byteLength(payload)).toBe(MB + 1);
    const response = await t.app.inject({
      method: 'POST',
      url: '/recipient/create/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });
    expect413(response, 'body');
    expect(await stored()).toEqual(before);
  });

  it('reads a body of exactly 1 MB (the limit is 1 MB, not less): it fails validation, not the limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recipient/create/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: contactOfSize(MB),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('customer_name');
  });

  it('answers 413 before authentication on a public route too', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(MB), password: 'y' }),
    });
    expect413(response, 'body');
  });
});

describe('template header files', () => {
  async function createWithHeader(
    format: 'IMAGE' | 'DOCUMENT',
    file: { name: string; type: string; bytes: Buffer },
  ) {
    const payload = imageTemplate('limit_check');
    payload.components[0] = { type: 'HEADER', format };
    const body = templateMultipart(payload, file);
    return t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  }

  it('answers 413 naming header_file for an image over its 5 MB cap, uploading and storing nothing', async () => {
    const before = await stored();
    const oversized = Buffer.concat([PNG, Buffer.alloc(5 * MB + 1 - PNG.length)]);
    const response = await createWithHeader('IMAGE', {
      name: 'big.png',
      type: 'image/png',
      bytes: oversized,
    });
    expect413(response, 'header_file');
    expect(await stored()).toEqual(before);
  });

  it('answers 413 naming header_file for a file over the largest cap (100 MB), cut off at the upload stream', async () => {
    const before = await stored();
    const response = await createWithHeader('DOCUMENT', {
      name: 'huge.pdf',
      type: 'application/pdf',
      bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100 * MB)]),
    });
    expect413(response, 'header_file');
    expect(await stored()).toEqual(before);
  });
});

describe('contact CSV imports', () => {
  const csvOfSize = (bytes: number) => {
    const rows = ['name,number'];
    for (let i = 0; rows.join('\n').length < bytes; i += 1)
      rows.push(`Person ${i},+1415555${String(1000 + i)}`);
    return `${rows.join('\n')}\n`;
  };

  it(`answers 413 naming file for a CSV over IMPORT_MAX_BYTES (${IMPORT_MAX_BYTES}), importing nothing`, async () => {
    const before = await stored();
    const csv = csvOfSize(IMPORT_MAX_BYTES + 100);
    expect(Buffer.byteLength(csv)).toBeGreaterThan(IMPORT_MAX_BYTES);
    const response = await importCsv(t, headers, csv, { tag: 'too-big' });
    expect413(response, 'file');
    expect(response.json().detail).toContain(`${IMPORT_MAX_BYTES} bytes`);
    expect(await stored()).toEqual(before);
  });

  it('imports a CSV under the limit (the control)', async () => {
    const csv = csvOfSize(IMPORT_MAX_BYTES - 200);
    expect(Buffer.byteLength(csv)).toBeLessThan(IMPORT_MAX_BYTES);
    const response = await importCsv(t, headers, csv, { tag: 'small' });
    expect(response.statusCode).toBe(201);
  });
});
