import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

// The Cloud API calls Meta answers besides template sends: read receipts, reading and
// deleting uploaded media, and `messaging_product` in the query string.
const sim = sandboxForFile('read-receipts-and-media');
let account: SignedUp;

beforeEach(async () => {
  account = await signUpWithToken(sim.url);
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(56, 7),
]);

async function upload(query = '', withProduct = true) {
  const form = new FormData();
  if (withProduct) form.append('messaging_product', 'whatsapp');
  form.append('type', 'image/png');
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
  const response = await fetch(`${sim.url}/v25.0/${account.phone_number_id}/media${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
  return {
    status: response.status,
    body: (await response.json()) as { id?: string; error?: { code: number } },
  };
}

async function loggedCalls(): Promise<Array<{ method: string; path: string; body: unknown }>> {
  const text = await readFile(sim.logFile, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method: string; path: string; body: unknown });
}

describe('read receipt: POST /{phone-number-id}/messages with status "read"', () => {
  const path = () => `/v25.0/${account.phone_number_id}/messages`;

  it('answers {"success": true} and records the call', async () => {
    const read = await call(sim.url, path(), {
      method: 'POST',
      token: account.token,
      json: {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFCQjJDRkY1',
      },
    });
    expect(read).toEqual({ status: 200, body: { success: true } });
    expect(await loggedCalls()).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: `/${account.phone_number_id}/messages`,
        body: { status: 'read', message_id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFCQjJDRkY1' },
      }),
    );
  });

  it('takes messaging_product from the query string too, and refuses a missing message_id or product', async () => {
    const query = await call(sim.url, `${path()}?messaging_product=whatsapp`, {
      method: 'POST',
      token: account.token,
      json: { status: 'read', message_id: 'wamid.x' },
    });
    expect(query.body).toEqual({ success: true });
    const noId = await call(sim.url, path(), {
      method: 'POST',
      token: account.token,
      json: { messaging_product: 'whatsapp', status: 'read' },
    });
    expect(noId.status).toBe(400);
    expect(noId.body.error).toMatchObject({
      code: 100,
      message: '(#100) The parameter message_id is required.',
    });
    const noProduct = await call(sim.url, path(), {
      method: 'POST',
      token: account.token,
      json: { status: 'read', message_id: 'wamid.x' },
    });
    expect(noProduct.body.error.message).toContain('messaging_product');
  });

  it('needs a token that may use the number', async () => {
    const other = await signUpWithToken(sim.url, { phone_number: '+44 7700 900123' });
    const read = await call(sim.url, path(), {
      method: 'POST',
      token: other.token,
      json: { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.x' },
    });
    expect(read.status).toBeGreaterThanOrEqual(400);
  });
});

describe('GET and DELETE /{media-id}', () => {
  it('answers the media as Meta does, then deletes it', async () => {
    const uploaded = await upload();
    expect(uploaded.status).toBe(200);
    const id = uploaded.body.id!;

    const node = await call(sim.url, `/v25.0/${id}`, { token: account.token });
    expect(node.status).toBe(200);
    expect(node.body).toEqual({
      messaging_product: 'whatsapp',
      url: expect.stringMatching(/^http:\/\/.+\?mid=\d+$/),
      mime_type: 'image/png',
      sha256: createHash('sha256').update(PNG).digest('hex'),
      file_size: PNG.length,
      id,
    });
    const scoped = await call(sim.url, `/v25.0/${id}?phone_number_id=${account.phone_number_id}`, {
      token: account.token,
    });
    expect(scoped.body.id).toBe(id);
    const wrongNumber = await call(sim.url, `/v25.0/${id}?phone_number_id=123456789012345`, {
      token: account.token,
    });
    expect(wrongNumber.status).toBe(400);

    const deleted = await call(sim.url, `/v25.0/${id}`, { method: 'DELETE', token: account.token });
    expect(deleted).toEqual({ status: 200, body: { success: true } });
    const gone = await call(sim.url, `/v25.0/${id}`, { token: account.token });
    expect(gone.status).toBe(400);
    expect(gone.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const again = await call(sim.url, `/v25.0/${id}`, { method: 'DELETE', token: account.token });
    expect(again.status).toBe(400);
  });

  it('hides another business’s media', async () => {
    const { body } = await upload();
    const other = await signUpWithToken(sim.url, { phone_number: '+44 7700 900123' });
    expect((await call(sim.url, `/v25.0/${body.id}`, { token: other.token })).status).toBe(400);
    const deleted = await call(sim.url, `/v25.0/${body.id}`, { method: 'DELETE', token: other.token });
    expect(deleted.status).toBe(400);
    expect((await call(sim.url, `/v25.0/${body.id}`, { token: account.token })).status).toBe(200);
  });

  it('takes messaging_product from the query string of an upload', async () => {
    expect((await upload('?messaging_product=whatsapp', false)).status).toBe(200);
    const missing = await upload('', false);
    expect(missing.status).toBe(400);
    expect(missing.body.error?.code).toBe(100);
  });
});
