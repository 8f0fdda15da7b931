import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

// Uploads are checked by their bytes against the declared type, on both upload paths, as Meta checks them.
const sim = sandboxForFile('media-content');
let account: SignedUp;

beforeEach(async () => {
  account = await signUpWithToken(sim.url);
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(56, 3),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 3)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42\0\0\0\0isommp42')]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

async function uploadMedia(type: string, bytes: Buffer) {
  const form = new FormData();
  form.append('messaging_product', 'whatsapp');
  form.append('type', type);
  form.append('file', new Blob([bytes], { type }), 'file');
  const response = await fetch(`${sim.url}/v21.0/${account.phone_number_id}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { id?: string; error?: Record<string, unknown> },
  };
}

describe('POST /{phone-number-id}/media', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['application/pdf', PDF],
    ['video/mp4', MP4],
  ])('takes %s whose bytes are that type', async (type, bytes) => {
    const uploaded = await uploadMedia(type, bytes);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.id).toMatch(/^\d{15}$/);
  });

  it.each([
    ['an SVG as image/png', 'image/png', SVG],
    ['a JPEG as image/png', 'image/png', JPEG],
    [
      'an HTML page as application/pdf',
      'application/pdf',
      Buffer.from('<html><script>alert(1)</script></html>'),
    ],
  ])('answers 131053 Media upload error for %s, keeping nothing', async (_label, type, bytes) => {
    const uploaded = await uploadMedia(type, bytes);
    expect(uploaded.status).toBe(400);
    expect(uploaded.body.error).toMatchObject({
      code: 131053,
      message: '(#131053) Media upload error',
      error_data: { messaging_product: 'whatsapp', details: expect.stringContaining(`is not ${type}`) },
    });
    const state = await call(sim.url, '/__sandbox/state');
    expect(state.body.media).toEqual([]);
  });
});

describe('resumable upload', () => {
  const start = (type: string, length: number) =>
    call(
      sim.url,
      `/v21.0/herald-sandbox-app/uploads?${new URLSearchParams({ file_name: 'x.png', file_length: String(length), file_type: type })}`,
      { method: 'POST', token: account.token },
    );
  const send = (id: string, offset: number, bytes: Uint8Array) =>
    call(sim.url, `/v21.0/${id}`, {
      method: 'POST',
      bytes,
      headers: { authorization: `OAuth ${account.token}`, file_offset: String(offset) },
    });

  it('refuses an SVG announced as image/png: 100, no bytes kept, no handle', async () => {
    const { id } = (await start('image/png', SVG.length)).body;
    const refused = await send(id, 0, SVG);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 100,
      message: expect.stringContaining("the file's content is not image/png"),
    });
    const status = await call(sim.url, `/v21.0/${id}`, {
      headers: { authorization: `OAuth ${account.token}` },
    });
    expect(status.body.file_offset).toBe(0);
  });

  it('judges the first bytes even when they come in several chunks', async () => {
    const { id } = (await start('image/png', JPEG.length)).body;
    expect((await send(id, 0, JPEG.subarray(0, 3))).status).toBe(200);
    const refused = await send(id, 3, JPEG.subarray(3));
    expect(refused.body.error.code).toBe(100);
    const png = (await start('image/png', PNG.length)).body.id;
    expect((await send(png, 0, PNG.subarray(0, 3))).status).toBe(200);
    expect((await send(png, 3, PNG.subarray(3))).body.h).toMatch(/^4::/);
  });
});
