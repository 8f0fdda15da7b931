import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox, StartSandboxOptions } from '../server';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let dir: string;
let logFile: string;
let receiver: WebhookReceiver;
const running: RunningSandbox[] = [];

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(196, 7)]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(56, 1),
]);
// Not a US number: Meta does not deliver the marketing template sent here to +1 (US) numbers (131049).
const RECIPIENT = '447700900101';

/** A sandbox on the test's folder, as `npm start` runs it: state beside the call log. */
async function start(options: Partial<StartSandboxOptions> = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    logFile,
    webhookUrl: receiver.url,
    webhookBatchWindowMs: 10,
    snapshotDelayMs: 20,
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

async function stop(sandbox: RunningSandbox): Promise<void> {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Statuses received for one message, in arrival order, with when each webhook arrived. */
function statusesOf(wamid: string): Array<{ status: string; at: number }> {
  return receiver.received.flatMap((hook) =>
    JSON.parse(hook.raw)
      .entry.flatMap((e: Json) => e.changes.flatMap((c: Json) => c.value.statuses ?? []))
      .filter((s: Json) => s.id === wamid)
      .map((s: Json) => ({ status: s.status as string, at: hook.at })),
  );
}

async function openUpload(url: string, acc: SignedUp, bytes: Buffer): Promise<string> {
  const query = new URLSearchParams({
    file_name: 'a.jpg',
    file_length: String(bytes.length),
    file_type: 'image/jpeg',
  });
  const opened = await call(url, `/v21.0/herald-sandbox-app/uploads?${query.toString()}`, {
    method: 'POST',
    token: acc.token,
  });
  expect(opened.status).toBe(200);
  return opened.body.id as string;
}

const appendUpload = (url: string, acc: SignedUp, id: string, offset: number, bytes: Buffer) =>
  call(url, `/v21.0/${id}`, {
    method: 'POST',
    bytes,
    headers: { authorization: `OAuth ${acc.token}`, file_offset: String(offset) },
  });

async function uploadMedia(url: string, acc: SignedUp): Promise<string> {
  const form = new FormData();
  form.append('messaging_product', 'whatsapp');
  form.append('type', 'image/png');
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'a.png');
  const response = await fetch(`${url}/v21.0/${acc.phone_number_id}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acc.token}` },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const imageSend = (url: string, acc: SignedUp, mediaId: string) =>
  call(url, `/v21.0/${acc.phone_number_id}/messages`, {
    method: 'POST',
    token: acc.token,
    json: {
      messaging_product: 'whatsapp',
      to: RECIPIENT,
      type: 'template',
      template: {
        name: 'picture_news',
        language: { code: 'en_US' },
        components: [{ type: 'header', parameters: [{ type: 'image', image: { id: mediaId } }] }],
      },
    },
  });

const templateStatus = async (url: string, acc: SignedUp, id: string) =>
  (await call(url, `/v21.0/${id}?fields=status`, { token: acc.token })).body.status as string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-restart-'));
  logFile = join(dir, 'calls.jsonl');
  receiver = await startWebhookReceiver();
});

afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the sandbox across a restart', () => {
  it('keeps businesses, tokens, PINs, templates, reviews, uploads, media and pending statuses', async () => {
    const first = await start({
      reviewDelayMs: 300,
      readRate: 1,
      statusDelaysMs: { sent: 20, delivered: 1000, read: 1600 },
    });
    const acc = await signUpWithToken(first.url);
    const registered = await call(first.url, `/v21.0/${acc.phone_number_id}/register`, {
      method: 'POST',
      token: acc.token,
      json: { messaging_product: 'whatsapp', pin: '123456' },
    });
    expect(registered.status).toBe(200);
    await call(first.url, `/v21.0/${acc.waba_id}/subscribed_apps`, { method: 'POST', token: acc.token });

    // A finished upload becomes a template's header sample, approved by the automatic review.
    const uploadId = await openUpload(first.url, acc, JPEG);
    const handle = (await appendUpload(first.url, acc, uploadId, 0, JPEG)).body.h as string;
    const created = await call(first.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: {
        name: 'picture_news',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } },
          { type: 'BODY', text: 'Something new.' },
        ],
      },
    });
    expect(created.status).toBe(200);
    await until(async () =>
      (await templateStatus(first.url, acc, created.body.id)) === 'APPROVED' ? true : undefined,
    );
    // Half an upload: the rest is sent after the restart.
    const halfId = await openUpload(first.url, acc, JPEG);
    expect((await appendUpload(first.url, acc, halfId, 0, JPEG.subarray(0, 100))).body.file_offset).toBe(100);
    const mediaId = await uploadMedia(first.url, acc);
    const sent = await imageSend(first.url, acc, mediaId);
    expect(sent.status).toBe(200);
    const wamid = sent.body.messages[0].id as string;
    await until(() => (statusesOf(wamid).length === 1 ? true : undefined));
    // A template whose review is due 300 ms from now, when the sandbox is down.
    const later = await call(first.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: {
        name: 'later_news',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi.' }],
      },
    });
    expect(later.body.status).toBe('PENDING');
    await stop(first);

    const stateFile = join(dir, 'state.json');
    // Tokens, codes and PINs are in it: only the owner may read it.
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    expect(saved.statuses.queue.map((s: Json) => s[1]).sort()).toEqual(['delivered', 'read']);
    // Down past the delivered status's time, not past the read's.
    await sleep(1100);
    const restartedAt = Date.now();
    const second = await start();

    const numbers = await call(second.url, `/v21.0/${acc.waba_id}/phone_numbers`, { token: acc.token });
    expect(numbers.status).toBe(200);
    expect(numbers.body.data.map((p: Json) => p.id)).toEqual([acc.phone_number_id]);
    expect(numbers.body.data[0].status).toBe('CONNECTED');
    expect(await templateStatus(second.url, acc, created.body.id)).toBe('APPROVED');
    // The review the restart interrupted still happens.
    await until(async () =>
      (await templateStatus(second.url, acc, later.body.id)) === 'APPROVED' ? true : undefined,
    );
    const otherPin = await call(second.url, `/v21.0/${acc.phone_number_id}/register`, {
      method: 'POST',
      token: acc.token,
      json: { messaging_product: 'whatsapp', pin: '654321' },
    });
    expect(otherPin.body.error.code).toBe(133005);
    const subscriptions = await call(second.url, `/v21.0/${acc.waba_id}/subscribed_apps`, {
      token: acc.token,
    });
    expect(subscriptions.body.data).toHaveLength(1);
    const reused = await call(
      second.url,
      `/v21.0/oauth/access_token?client_id=herald-sandbox-app&client_secret=herald-sandbox-secret&code=${acc.code}`,
    );
    expect(reused.body.error.error_subcode).toBe(36009);
    // The half upload resumes where it stopped, its first bytes kept.
    const resumed = await appendUpload(second.url, acc, halfId, 100, JPEG.subarray(100));
    expect(resumed.body.h).toMatch(/^4::/);

    // The old token, template and media id still send.
    const again = await imageSend(second.url, acc, mediaId);
    expect(again.status).toBe(200);

    // The earlier message's statuses arrive after the restart, in order, each once.
    await until(() => (statusesOf(wamid).length === 3 ? true : undefined));
    await sleep(100);
    const statuses = statusesOf(wamid);
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses[1]!.at).toBeGreaterThanOrEqual(restartedAt);
    expect(statuses[2]!.at).toBeGreaterThanOrEqual(restartedAt);
  });

  it('posts again after the restart a webhook Herald had not yet taken', async () => {
    const first = await start({
      webhookRetryBaseMs: 60_000,
      readRate: 0,
      deliveredRate: 0,
      statusDelaysMs: { sent: 10, delivered: 10, read: 10 },
    });
    const acc = await signUpWithToken(first.url);
    const created = await call(first.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: {
        name: 'plain',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi.' }],
      },
    });
    await call(first.url, `/__sandbox/templates/${created.body.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    await receiver.waitFor(1);
    // Herald is down: the 'sent' status is refused, its retry a minute away.
    receiver.answers.push(503);
    const sent = await call(first.url, `/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      token: acc.token,
      json: {
        messaging_product: 'whatsapp',
        to: RECIPIENT,
        type: 'template',
        template: { name: 'plain', language: { code: 'en_US' } },
      },
    });
    const wamid = sent.body.messages[0].id as string;
    await until(() => (statusesOf(wamid).length === 1 ? true : undefined));
    await stop(first);

    const restartedAt = Date.now();
    await start();
    await until(() => (statusesOf(wamid).length === 2 ? true : undefined));
    expect(statusesOf(wamid).map((s) => s.status)).toEqual(['sent', 'sent']);
    expect(statusesOf(wamid)[1]!.at).toBeGreaterThanOrEqual(restartedAt);
  });

  it('forgets everything, on disk too, after POST /__sandbox/reset', async () => {
    const first = await start({ reviewDelayMs: 600_000 });
    const acc = await signUpWithToken(first.url);
    const uploadId = await openUpload(first.url, acc, JPEG);
    await appendUpload(first.url, acc, uploadId, 0, JPEG.subarray(0, 50));
    await stop(first);
    expect(existsSync(join(dir, 'uploads'))).toBe(true);

    const second = await start();
    expect((await call(second.url, `/v21.0/${acc.waba_id}`, { token: acc.token })).status).toBe(200);
    expect((await call(second.url, '/__sandbox/reset', { method: 'POST' })).status).toBe(200);
    expect(existsSync(join(dir, 'uploads'))).toBe(false);
    await stop(second);
    const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(saved.records.wabas).toEqual([]);

    const third = await start();
    const after = await call(third.url, `/v21.0/${acc.waba_id}`, { token: acc.token });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe(190);
  });

  it('keeps nothing on disk with stateDir: null, and starts empty', async () => {
    const first = await start({ stateDir: null });
    const acc = await signUpWithToken(first.url);
    await stop(first);
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
    const second = await start({ stateDir: null });
    expect((await call(second.url, `/v21.0/${acc.waba_id}`, { token: acc.token })).status).toBe(401);
  });

  it('refuses to start on a state file it cannot read, naming it', async () => {
    const first = await start();
    await signUpWithToken(first.url);
    await stop(first);
    await import('node:fs/promises').then((fs) => fs.writeFile(join(dir, 'state.json'), '{"version":'));
    await expect(start()).rejects.toThrow(/state\.json is not valid JSON/);
  });
});
