import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

const APP_ID = 'herald-sandbox-app';
const sim = sandboxForFile('uploads');
let account: SignedUp;

beforeEach(async () => {
  account = await signUpWithToken(sim.url);
});

const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(996, 7)]);

async function startUpload(length = jpeg.length, type = 'image/jpeg') {
  const query = new URLSearchParams({ file_name: 'photo.jpg', file_length: String(length), file_type: type });
  return call(sim.url, `/v21.0/${APP_ID}/uploads?${query.toString()}`, {
    method: 'POST',
    token: account.token,
  });
}

const send = (id: string, offset: number, bytes: Uint8Array, auth = `OAuth ${account.token}`) =>
  call(sim.url, `/v21.0/${id}`, {
    method: 'POST',
    bytes,
    headers: { authorization: auth, file_offset: String(offset) },
  });

describe('resumable upload', () => {
  it('opens a session, takes the bytes with OAuth auth and answers a handle', async () => {
    const opened = await startUpload();
    expect(opened).toEqual({
      status: 200,
      body: { id: expect.stringMatching(/^upload:[A-Za-z0-9_-]+\?sig=ARZ\w+$/) },
    });
    const res = await send(opened.body.id, 0, jpeg);
    expect(res).toEqual({ status: 200, body: { h: expect.stringMatching(/^4::/) } });
    const status = await call(sim.url, `/v21.0/${opened.body.id}`, {
      headers: { authorization: `OAuth ${account.token}` },
    });
    expect(status.body).toEqual({ id: opened.body.id, file_offset: jpeg.length });
  });

  it('resumes at the offset the status call reports', async () => {
    const { id } = (await startUpload()).body;
    const part = await send(id, 0, jpeg.subarray(0, 400));
    expect(part.body).toEqual({ id, file_offset: 400 });
    const status = await call(sim.url, `/v21.0/${id}`, {
      headers: { authorization: `OAuth ${account.token}` },
    });
    expect(status.body.file_offset).toBe(400);
    const wrong = await send(id, 0, jpeg.subarray(400));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/file_offset must be 400/);
    const rest = await send(id, 400, jpeg.subarray(400));
    expect(rest.body.h).toMatch(/^4::/);
  });

  it('takes any content type for the bytes', async () => {
    const { id } = (await startUpload()).body;
    const res = await call(sim.url, `/v21.0/${id}`, {
      method: 'POST',
      bytes: jpeg,
      headers: { authorization: `OAuth ${account.token}`, file_offset: '0', 'content-type': 'image/jpeg' },
    });
    expect(res.body.h).toMatch(/^4::/);
  });

  it('wants OAuth, not Bearer, on the upload: calls, and the sig of the session', async () => {
    const { id } = (await startUpload()).body;
    expect((await send(id, 0, jpeg, `Bearer ${account.token}`)).body.error.code).toBe(190);
    const unsigned = (id as string).split('?')[0] as string;
    expect((await send(unsigned, 0, jpeg)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await send(`${unsigned}?sig=ARZwrong`, 0, jpeg)).body.error.error_subcode).toBe(33);
  });

  it('refuses more bytes than announced, a missing offset and bad session parameters', async () => {
    const { id } = (await startUpload(10)).body;
    expect((await send(id, 0, jpeg)).body.error.message).toMatch(/file_length/);
    const noOffset = await call(sim.url, `/v21.0/${id}`, {
      method: 'POST',
      bytes: jpeg.subarray(0, 10),
      headers: { authorization: `OAuth ${account.token}` },
    });
    expect(noOffset.body.error.message).toBe('(#100) The parameter file_offset is required.');
    expect((await startUpload(10, 'image/gif')).body.error.message).toMatch(/file_type must be one of/);
    expect((await startUpload(0)).body.error.code).toBe(100);
    expect((await startUpload(200 * 1024 * 1024)).body.error.message).toMatch(/at most/);
  });

  it('answers another app id with 100/33', async () => {
    const res = await call(
      sim.url,
      `/v21.0/other-app/uploads?file_name=a&file_length=1&file_type=image/png`,
      {
        method: 'POST',
        token: account.token,
      },
    );
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('gives a handle that an IMAGE header accepts', async () => {
    const { id } = (await startUpload()).body;
    const { h } = (await send(id, 0, jpeg)).body;
    const created = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      json: {
        name: 'photo_promo',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [h] } },
          { type: 'BODY', text: 'Look at this' },
        ],
      },
    });
    expect(created.body).toMatchObject({ status: 'PENDING', category: 'MARKETING' });
    // A JPEG is no video.
    const video = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      json: {
        name: 'video_promo',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'VIDEO', example: { header_handle: [h] } },
          { type: 'BODY', text: 'Look at this' },
        ],
      },
    });
    expect(video.body.error).toMatchObject({ code: 100, error_subcode: 2388047 });
  });

  it('records sessions in the state and sizes, never bytes, in the log', async () => {
    const { id } = (await startUpload()).body;
    await send(id, 0, jpeg);
    const state = (await call(sim.url, '/__sandbox/state')).body;
    expect(state.uploads).toEqual([
      expect.objectContaining({
        id,
        file_name: 'photo.jpg',
        file_length: 1000,
        file_offset: 1000,
        handle: expect.any(String),
      }),
    ]);
    const lines = (await readFile(sim.logFile, 'utf8')).split('\n').filter(Boolean);
    const last = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
    expect(last).toMatchObject({
      method: 'POST',
      body: { file_offset: 0, bytes: 1000 },
      result: { h: expect.any(String) },
    });
    expect(lines.join('\n').length).toBeLessThan(20_000);
  });
});
