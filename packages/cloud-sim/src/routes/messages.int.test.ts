import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { ReceivedWebhook, WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

const SECRET = 'herald-sandbox-secret';
let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;
let dir: string;
let logFile: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TEMPLATE = {
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ana'] } },
    { type: 'BODY', text: 'Dear {{1}}, order {{2}} ships today.', example: { body_text: [['Ana', '42']] } },
    {
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Track', url: 'https://ex.com/{{1}}', example: ['a'] }],
    },
  ],
};

const COMPONENTS = [
  { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
  {
    type: 'body',
    parameters: [
      { type: 'text', text: 'Ana' },
      { type: 'text', text: '42' },
    ],
  },
  { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'track-42' }] },
];

const sendBody = (to: string, extra: Record<string, unknown> = {}) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'template',
  template: { name: 'order_update', language: { code: 'en_US' }, components: COMPONENTS },
  ...extra,
});

const send = (to: string, extra: Record<string, unknown> = {}, acc: SignedUp = account) =>
  call(url, `/v21.0/${acc.phone_number_id}/messages`, {
    method: 'POST',
    token: acc.token,
    json: sendBody(to, extra),
  });

const recipient = (n: number) => `1650555${String(n).padStart(4, '0').replace(/0000$/, '0001')}`;

async function approvedTemplate(acc: SignedUp, definition: Json = TEMPLATE): Promise<string> {
  const created = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: definition,
  });
  expect(created.status).toBe(200);
  await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  return created.body.id;
}

/** Statuses received in `messages` webhooks, in arrival order. */
function statusesReceived(): Json[] {
  return messageHooks().flatMap((h) =>
    JSON.parse(h.raw).entry.flatMap((e: Json) => e.changes.flatMap((c: Json) => c.value.statuses ?? [])),
  );
}

function messageHooks(): ReceivedWebhook[] {
  return receiver.received.filter((h) => JSON.parse(h.raw).entry[0].changes[0].field === 'messages');
}

async function until(ok: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function verify(raw: string, header: unknown): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
  const given = Buffer.from(String(header));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-messages-'));
  logFile = join(dir, 'calls.jsonl');
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, logFile });
  url = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await call(url, '/__sandbox/reset', { method: 'POST' });
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      review_delay_ms: 600_000,
      webhook_url: receiver.url,
      webhook_retry_base_ms: 50,
      webhook_max_attempts: 5,
      status_delays_ms: { sent: 20, delivered: 60, read: 100 },
      delivered_rate: 1,
      read_rate: 1,
      duplicate_rate: 0,
      reorder: false,
      webhook_batch_size: 100,
      webhook_batch_window_ms: 20,
      pair_rate_burst: 1,
      pair_rate_window_ms: 6000,
      // These tests send to up to 400 people a day: past a new portfolio's 250.
      default_messaging_limit: 'TIER_2K',
    },
  });
  account = await signUpWithToken(url, { phone_number: '+1 555 078 3881' });
  await approvedTemplate(account);
  await until(() => receiver.received.length >= 1);
  receiver.received.length = 0;
});

afterEach(() => {
  receiver.received.length = 0;
  receiver.answers.length = 0;
});

describe('POST /{phone-number-id}/messages', () => {
  it("accepts a template send with Meta's answer, and records it in the log of accepted messages", async () => {
    const res = await send('+16505551234', { biz_opaque_callback_data: 'row-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+16505551234', wa_id: '16505551234' }],
      messages: [{ id: expect.stringMatching(/^wamid\.HBgL[A-Za-z0-9+/=]+$/), message_status: 'accepted' }],
    });
    const log = await call(url, `/__sandbox/messages?phone_number_id=${account.phone_number_id}`);
    expect(log.body).toEqual({
      total: 1,
      unique_recipients: 1,
      duplicate_recipients: [],
      data: [
        {
          wamid: res.body.messages[0].id,
          phone_number_id: account.phone_number_id,
          to: '16505551234',
          template: { name: 'order_update', language: 'en_US' },
          biz_opaque_callback_data: 'row-1',
          endpoint: 'messages',
          accepted_at: expect.any(String),
          // A utility template without a TTL of its own: Meta's 30 days.
          ttl_seconds: 2_592_000,
          parameters: { header: ['Ana'], body: ['Ana', '42'], button_0: ['track-42'] },
        },
      ],
    });
    await until(() => false, 300).catch(() => undefined);
    const lines = (await readFile(logFile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({
      method: 'POST',
      path: `/${account.phone_number_id}/messages`,
      body: { to: '+16505551234', biz_opaque_callback_data: 'row-1' },
      result: { messages: [{ id: res.body.messages[0].id }] },
    });
  });

  it('gives every message its own wamid', async () => {
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => (await send(recipient(n))).body.messages[0].id),
    );
    expect(new Set(ids).size).toBe(5);
  });

  it('is 132001 for an unknown name, a wrong language or a template that is not APPROVED', async () => {
    await call(url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      json: { ...TEMPLATE, name: 'still_pending' },
    });
    const cases = [
      { name: 'no_such_template', language: { code: 'en_US' } },
      { name: 'order_update', language: { code: 'fr' } },
      { name: 'still_pending', language: { code: 'en_US' } },
    ];
    for (const template of cases) {
      const res = await send(recipient(1), { template: { ...template, components: COMPONENTS } });
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({
        code: 132001,
        message: '(#132001) Template name does not exist in the translation',
        error_data: { messaging_product: 'whatsapp', details: expect.stringContaining(template.name) },
      });
    }
    expect((await call(url, '/__sandbox/messages')).body.total).toBe(0);
  });

  it('is 132000 when a component gets the wrong number of parameters', async () => {
    const [header, body, button] = COMPONENTS as [Json, Json, Json];
    const wrong = [
      [header, { ...body, parameters: body.parameters.slice(0, 1) }, button],
      [header, button],
      [body, button],
      [header, body, { ...button, parameters: [] }],
    ];
    for (const components of wrong) {
      const res = await send(recipient(1), {
        template: { name: 'order_update', language: { code: 'en_US' }, components },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 132000,
        message: '(#132000) Number of parameters does not match the expected number of params',
      });
    }
  });

  it('is 190 without a valid token, 100/33 for a number the token does not cover, 100 for a bad `to`', async () => {
    const noToken = await call(url, `/v21.0/${account.phone_number_id}/messages`, {
      method: 'POST',
      json: sendBody(recipient(1)),
    });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error.code).toBe(190);
    const other = await signUpWithToken(url);
    const foreign = await call(url, `/v21.0/${account.phone_number_id}/messages`, {
      method: 'POST',
      token: other.token,
      json: sendBody(recipient(1)),
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const unknown = await call(url, '/v21.0/123456789012345/messages', {
      method: 'POST',
      token: account.token,
      json: sendBody(recipient(1)),
    });
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    for (const to of ['hello', '12', '+1 650 555 1234']) {
      const bad = await send(to);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe(100);
    }
  });
});

describe('throughput and pair rate', () => {
  it('refuses beyond the configured mps with 130429 and recovers after a second', async () => {
    const set = await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { mps: 5 },
    });
    expect(set.body).toMatchObject({ throughput_level: 'STANDARD', mps: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(recipient(i + 1))));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(ok).toBeLessThanOrEqual(6);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 130429, message: '(#130429) Rate limit hit' });
    }
    await new Promise((r) => setTimeout(r, 1050));
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => send(recipient(i + 100))));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await call(url, '/__sandbox/messages')).body.total).toBe(ok + 5);
    // Every recipient a request named is kept, refused ones too: the fault tests' "was it ever requested".
    const requested = await call(
      url,
      `/__sandbox/messages?phone_number_id=${account.phone_number_id}&limit=0&requested=1`,
    );
    expect(new Set(requested.body.requested_recipients)).toEqual(
      new Set(
        [
          ...Array.from({ length: 20 }, (_, i) => recipient(i + 1)),
          ...Array.from({ length: 5 }, (_, i) => recipient(i + 100)),
        ].map((r) => r.replace(/^\+/, '')),
      ),
    );
    expect((await call(url, '/__sandbox/messages')).body.requested_recipients).toBeUndefined();
  });

  it('sets the throughput level through the control API, visible on the number', async () => {
    const set = await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { throughput_level: 'HIGH' },
    });
    expect(set.body).toEqual({
      id: account.phone_number_id,
      throughput_level: 'HIGH',
      mps: 1000,
      level_mps: 1000,
    });
    const node = await call(url, `/v21.0/${account.phone_number_id}?fields=throughput`, {
      token: account.token,
    });
    expect(node.body.throughput).toEqual({ level: 'HIGH' });
    expect((await call(url, '/__sandbox/phone-numbers/1', { method: 'POST', json: {} })).status).toBe(404);
    const bad = await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { throughput_level: 'TURBO' },
    });
    expect(bad.body.error.code).toBe(100);
  });

  it('is 131056 for a second message to the same recipient within the pair window', async () => {
    expect((await send(recipient(7))).status).toBe(200);
    const second = await send(recipient(7));
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({
      code: 131056,
      message: '(#131056) (Business Account, Consumer Account) pair rate limit hit',
    });
    expect((await send(recipient(8))).status).toBe(200);
    await call(url, '/__sandbox/config', { method: 'POST', json: { pair_rate_window_ms: 200 } });
    await new Promise((r) => setTimeout(r, 250));
    expect((await send(recipient(7))).status).toBe(200);
    const log = await call(url, '/__sandbox/messages');
    expect(log.body).toMatchObject({
      total: 3,
      unique_recipients: 2,
      duplicate_recipients: [{ to: recipient(7), count: 2 }],
    });
  });
});

describe('status webhooks', () => {
  it('posts signed sent → delivered → read statuses in Meta’s shape', async () => {
    const res = await send('16505551234', { biz_opaque_callback_data: 'row-9' });
    const wamid = res.body.messages[0].id;
    await until(() => statusesReceived().length >= 3);
    const hooks = messageHooks();
    for (const hook of hooks) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(verify(hook.raw, hook.headers['x-hub-signature-256'])).toBe(true);
    }
    const first = JSON.parse(hooks[0]!.raw);
    expect(first.object).toBe('whatsapp_business_account');
    expect(first.entry[0].id).toBe(account.waba_id);
    expect(first.entry[0].changes[0].value.metadata).toEqual({
      display_phone_number: '15550783881',
      phone_number_id: account.phone_number_id,
    });
    const statuses = statusesReceived();
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    expect(statuses[0]).toEqual({
      id: wamid,
      status: 'sent',
      timestamp: expect.stringMatching(/^\d{10}$/),
      recipient_id: '16505551234',
      recipient_user_id: expect.stringMatching(/^US\.\d{20}$/),
      biz_opaque_callback_data: 'row-9',
      conversation: {
        id: expect.any(String),
        expiration_timestamp: expect.stringMatching(/^\d{10}$/),
        origin: { type: 'utility' },
      },
      pricing: { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
    });
    expect(statuses[2]).toEqual({
      id: wamid,
      status: 'read',
      timestamp: expect.stringMatching(/^\d{10}$/),
      recipient_id: '16505551234',
      recipient_user_id: statuses[0].recipient_user_id,
      biz_opaque_callback_data: 'row-9',
    });
  });

  it('fails a recipient whose digits end in 0000 with 131026, after an HTTP 200', async () => {
    const res = await send('+15550000000', { biz_opaque_callback_data: 'row-x' });
    expect(res.status).toBe(200);
    await until(() => statusesReceived().length >= 1);
    await new Promise((r) => setTimeout(r, 150));
    const statuses = statusesReceived();
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toEqual({
      id: res.body.messages[0].id,
      status: 'failed',
      timestamp: expect.stringMatching(/^\d{10}$/),
      recipient_id: '15550000000',
      biz_opaque_callback_data: 'row-x',
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: { details: expect.any(String) },
          href: expect.any(String),
        },
      ],
    });
  });

  it('batches many statuses into few POSTs of at most the batch size', async () => {
    await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { mps: 10_000 },
    });
    await call(url, '/__sandbox/config', { method: 'POST', json: { webhook_batch_window_ms: 200 } });
    const count = 300;
    const results = await Promise.all(Array.from({ length: count }, (_, i) => send(recipient(i + 1))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    await until(() => statusesReceived().length >= count * 3, 15_000);
    const hooks = messageHooks();
    expect(hooks.length).toBeLessThan(40);
    for (const hook of hooks) {
      const n = JSON.parse(hook.raw).entry[0].changes.reduce(
        (s: number, c: Json) => s + c.value.statuses.length,
        0,
      );
      expect(n).toBeLessThanOrEqual(100);
    }
    const state = await call(url, '/__sandbox/state');
    expect(state.body.messaging).toMatchObject({
      accepted_count: count,
      statuses_posted: count * 3,
      pending_statuses: 0,
    });
  });

  it('applies the delivered and read shares', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { delivered_rate: 1, read_rate: 0 } });
    await send(recipient(1));
    await until(() => statusesReceived().length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(statusesReceived().map((s) => s.status)).toEqual(['sent', 'delivered']);
  });

  it('sends duplicates and reorders on demand', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { duplicate_rate: 1 } });
    const wamid = (await send(recipient(1))).body.messages[0].id;
    await until(() => statusesReceived().length >= 6);
    const statuses = statusesReceived();
    expect(statuses.every((s) => s.id === wamid)).toBe(true);
    expect(statuses.map((s) => s.status).sort()).toEqual([
      'delivered',
      'delivered',
      'read',
      'read',
      'sent',
      'sent',
    ]);

    receiver.received.length = 0;
    await call(url, '/__sandbox/config', { method: 'POST', json: { duplicate_rate: 0, reorder: true } });
    await send(recipient(2));
    await until(() => statusesReceived().length >= 3);
    const order = statusesReceived().map((s) => s.status);
    expect(order).toEqual(['sent', 'read', 'delivered']);
    const [, read, delivered] = statusesReceived();
    expect(Number(read.timestamp)).toBeGreaterThanOrEqual(Number(delivered.timestamp));
  });

  it('retries a status webhook until Herald answers 2xx', async () => {
    receiver.answers.push(500, 503);
    await call(url, '/__sandbox/config', { method: 'POST', json: { read_rate: 0, delivered_rate: 0 } });
    await send(recipient(1));
    await until(() => messageHooks().length >= 3);
    const hooks = messageHooks();
    expect(hooks[1]!.raw).toBe(hooks[0]!.raw);
    expect(hooks[2]!.raw).toBe(hooks[0]!.raw);
  });
});

describe('fault injection', () => {
  it('answers about the configured share with 500 / 131000, none of them accepted', async () => {
    await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { mps: 10_000 },
    });
    const faults = await call(url, '/__sandbox/faults', { method: 'POST', json: { error_rate_5xx: 0.2 } });
    expect(faults.body).toMatchObject({ error_rate_5xx: 0.2 });
    const results: Json[] = [];
    for (let i = 0; i < 10; i++) {
      results.push(
        ...(await Promise.all(Array.from({ length: 40 }, (_, j) => send(recipient(i * 40 + j + 1))))),
      );
    }
    const failed = results.filter((r) => r.status === 500);
    expect(failed.length).toBeGreaterThan(40);
    expect(failed.length).toBeLessThan(130);
    expect(failed[0].body.error).toMatchObject({ code: 131000, message: '(#131000) Something went wrong' });
    expect(results.filter((r) => r.status === 200)).toHaveLength(400 - failed.length);
    expect((await call(url, '/__sandbox/messages')).body.total).toBe(400 - failed.length);
  });

  it('answers 130429 in bursts, configured through /__sandbox/config too', async () => {
    await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { rate_limit_burst: { every_n: 10, length: 3 } },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await send(recipient(i + 1));
      statuses.push(res.status === 200 ? 200 : res.body.error.code);
    }
    const cycle = [200, 200, 200, 200, 200, 200, 200, 130429, 130429, 130429];
    expect(statuses).toEqual([...cycle, ...cycle]);
  });

  it('adds latency, and reset clears every fault', async () => {
    await call(url, '/__sandbox/faults', { method: 'POST', json: { latency_ms: 250 } });
    let started = Date.now();
    expect((await send(recipient(1))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    await call(url, '/__sandbox/faults', { method: 'POST', json: { error_rate_5xx: 1 } });
    await call(url, '/__sandbox/reset', { method: 'POST' });
    expect((await call(url, '/__sandbox/faults')).body).toEqual({
      error_rate_5xx: 0,
      rate_limit_rate: 0,
      rate_limit_burst: null,
      latency_ms: 0,
      marketing_limit_rate: 0,
    });
    const acc = await signUpWithToken(url);
    await approvedTemplate(acc);
    started = Date.now();
    expect((await send(recipient(1), {}, acc)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(240);
  });

  it('refuses a bad fault setting and changes nothing', async () => {
    const res = await call(url, '/__sandbox/faults', {
      method: 'POST',
      json: { latency_ms: 5, error_rate_5xx: 3 },
    });
    expect(res.body.error.code).toBe(100);
    expect((await call(url, '/__sandbox/faults')).body.latency_ms).toBe(0);
  });
});

describe('media for sending', () => {
  /** An approved template with an image header, its review sample uploaded the resumable way. */
  async function imageTemplate(acc: SignedUp) {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(96, 7)]);
    const query = new URLSearchParams({
      file_name: 'a.jpg',
      file_length: String(jpeg.length),
      file_type: 'image/jpeg',
    });
    const opened = await call(url, `/v21.0/herald-sandbox-app/uploads?${query.toString()}`, {
      method: 'POST',
      token: acc.token,
    });
    const handle = await call(url, `/v21.0/${opened.body.id}`, {
      method: 'POST',
      bytes: jpeg,
      headers: { authorization: `OAuth ${acc.token}`, file_offset: '0' },
    });
    await approvedTemplate(acc, {
      name: 'picture_news',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle.body.h] } },
        { type: 'BODY', text: 'Something new.' },
      ],
    });
  }

  async function upload(acc: SignedUp, parts: { type?: string; product?: string; bytes?: number }) {
    const form = new FormData();
    if (parts.product !== '') form.append('messaging_product', parts.product ?? 'whatsapp');
    if (parts.type !== undefined) form.append('type', parts.type);
    // A PNG signature first: the sandbox checks the bytes against the type, as Meta does.
    const bytes = Buffer.alloc(parts.bytes ?? 64, 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'a.png');
    const response = await fetch(`${url}/v21.0/${acc.phone_number_id}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acc.token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  const imageSend = (acc: SignedUp, media: object) =>
    call(url, `/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      token: acc.token,
      json: {
        messaging_product: 'whatsapp',
        to: recipient(7),
        type: 'template',
        template: {
          name: 'picture_news',
          language: { code: 'en_US' },
          components: [{ type: 'header', parameters: [{ type: 'image', image: media }] }],
        },
      },
    });

  it('answers an id for an uploaded image, which a send of that number can name', async () => {
    await imageTemplate(account);
    const uploaded = await upload(account, { type: 'image/png' });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.id).toMatch(/^\d{15}$/);
    const sent = await imageSend(account, { id: uploaded.body.id });
    expect(sent.status).toBe(200);
    expect(sent.body.messages[0].id).toMatch(/^wamid\./);
  });

  it('refuses an unknown media id, or one another number uploaded', async () => {
    await imageTemplate(account);
    const unknown = await imageSend(account, { id: '123456789012345' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe(100);
    const other = await signUpWithToken(url, { phone_number: '+1 555 078 3999' });
    const theirs = await upload(other, { type: 'image/png' });
    const borrowed = await imageSend(account, { id: theirs.body.id });
    expect(borrowed.status).toBe(400);
    expect(borrowed.body.error.message).toContain(theirs.body.id);
  });

  it('refuses a missing messaging_product, an unsupported type and a file over the type’s limit', async () => {
    expect((await upload(account, { type: 'image/png', product: '' })).status).toBe(400);
    const gif = await upload(account, { type: 'image/gif' });
    expect(gif.status).toBe(400);
    expect(gif.body.error.message).toContain('type must be one of');
    const huge = await upload(account, { type: 'image/png', bytes: 5 * 1024 * 1024 + 1 });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toContain('larger than');
  });
});

describe('inbound messages', () => {
  it('posts a signed text message webhook with the contact', async () => {
    const res = await call(url, '/__sandbox/inbound', {
      method: 'POST',
      json: { from: '+16505551234', text: 'STOP', phone_number_id: account.phone_number_id, name: 'Kerry' },
    });
    expect(res.status).toBe(200);
    await until(() => messageHooks().length >= 1);
    const [hook] = messageHooks();
    expect(verify(hook!.raw, hook!.headers['x-hub-signature-256'])).toBe(true);
    expect(JSON.parse(hook!.raw)).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: account.waba_id,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: account.phone_number_id },
                contacts: [
                  {
                    profile: { name: 'Kerry' },
                    wa_id: '16505551234',
                    user_id: expect.stringMatching(/^US\.\d{20}$/),
                  },
                ],
                messages: [
                  {
                    from: '16505551234',
                    from_user_id: expect.stringMatching(/^US\.\d{20}$/),
                    id: res.body.wamid,
                    timestamp: expect.stringMatching(/^\d{10}$/),
                    type: 'text',
                    text: { body: 'STOP' },
                  },
                ],
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
    const missing = await call(url, '/__sandbox/inbound', {
      method: 'POST',
      json: { from: '16505551234', text: 'x' },
    });
    expect(missing.body.error.code).toBe(100);
  });
});

describe('accepted log', () => {
  it('filters by number, recipient and time, so tests can check each recipient was messaged at most once', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { pair_rate_window_ms: 0 } });
    const other = await signUpWithToken(url);
    await approvedTemplate(other);
    for (const n of [1, 2, 3]) await send(recipient(n));
    await new Promise((r) => setTimeout(r, 5));
    const mid = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await send(recipient(2));
    await send(recipient(2), {}, other);
    const mine = (await call(url, `/__sandbox/messages?phone_number_id=${account.phone_number_id}`)).body;
    expect(mine).toMatchObject({
      total: 4,
      unique_recipients: 3,
      duplicate_recipients: [{ to: recipient(2), count: 2 }],
    });
    const since = (await call(url, `/__sandbox/messages?since=${mid}`)).body;
    expect(since.total).toBe(2);
    const byTo = (await call(url, `/__sandbox/messages?to=%2B${recipient(2)}&limit=1`)).body;
    expect(byTo).toMatchObject({ total: 3 });
    expect(byTo.data).toHaveLength(1);
  });
});

describe('closing', () => {
  it('stops status timers and latency waits, so close() returns promptly', async () => {
    const own = await startSandbox({
      port: 0,
      webhookUrl: receiver.url,
      statusDelaysMs: { sent: 60_000, delivered: 60_000, read: 60_000 },
    });
    const acc = await signUpWithToken(own.url);
    const created = await call(own.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: TEMPLATE,
    });
    await call(own.url, `/__sandbox/templates/${created.body.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    const res = await call(own.url, `/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      token: acc.token,
      json: sendBody(recipient(1)),
    });
    expect(res.status).toBe(200);
    await call(own.url, '/__sandbox/faults', { method: 'POST', json: { latency_ms: 30_000 } });
    const slow = fetch(`${own.url}/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acc.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(sendBody(recipient(2))),
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await slow;
  });
});
