import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';

// Meta's message time-to-live: `message_send_ttl_seconds` on templates, each accepted message's TTL by
// Meta's compatibility rule, and undelivered messages that expire (a `failed` status at acceptance + TTL)
// when the sandbox's TTL clock passes it, by itself or moved forward with `POST /__sandbox/clock`.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const sim = sandboxForFile('message-ttl');
let url: string;
let receiver: WebhookReceiver;
let acc: SignedUp;

// Not a US number: Meta does not deliver marketing templates to +1 (US) numbers (131049).
const UK = '447700900123';
const THIRTY_DAYS = 2_592_000;
const EXPIRY_DETAILS = 'Message not delivered within its time-to-live (message_send_ttl_seconds).';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

const createTemplate = (name: string, category: string, extra: Record<string, unknown> = {}) =>
  call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: {
      name,
      language: 'en_US',
      category,
      components: [{ type: 'BODY', text: 'Hello there.' }],
      ...extra,
    },
  });

async function approve(id: string): Promise<void> {
  const reviewed = await call(url, `/__sandbox/templates/${id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  expect(reviewed.status).toBe(200);
}

async function approvedTemplate(name: string, category: string, ttl?: number): Promise<string> {
  const created = await createTemplate(
    name,
    category,
    ttl === undefined ? {} : { message_send_ttl_seconds: ttl },
  );
  expect(created.status).toBe(200);
  await approve(created.body.id as string);
  return created.body.id as string;
}

const readTemplate = async (id: string) => (await call(url, `/v21.0/${id}`, { token: acc.token })).body;

/** Sends the template to `to` through `/messages` or `/marketing_messages`; answers the wamid. */
async function send(endpoint: 'messages' | 'marketing_messages', name: string, to = UK): Promise<string> {
  const sent = await call(url, `/v21.0/${acc.phone_number_id}/${endpoint}`, {
    method: 'POST',
    token: acc.token,
    json: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: { name, language: { code: 'en_US' } },
    },
  });
  expect(sent.status).toBe(200);
  return sent.body.messages[0].id as string;
}

const unreachable = (number: string, reachable = false) =>
  call(url, `/__sandbox/recipients/${number}`, { method: 'POST', json: { reachable } });

const advance = (seconds: unknown) =>
  call(url, '/__sandbox/clock', { method: 'POST', json: { advance_seconds: seconds } });

async function logEntry(wamid: string): Promise<Json> {
  const log = await call(url, '/__sandbox/messages');
  return log.body.data.find((m: Json) => m.wamid === wamid);
}

/** Every status received for this message, in arrival order. */
function statusesOf(wamid: string): Json[] {
  return receiver.received.flatMap((hook) =>
    JSON.parse(hook.raw)
      .entry.flatMap((e: Json) => e.changes.flatMap((c: Json) => c.value.statuses ?? []))
      .filter((s: Json) => s.id === wamid),
  );
}

const named = (wamid: string, status: string) => statusesOf(wamid).filter((s) => s.status === status);

const acceptedSeconds = (entry: Json) => Math.floor(Date.parse(entry.accepted_at as string) / 1000);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

// After sandboxForFile's reset (which also sets the TTL clock back to real time): fast statuses to the receiver.
beforeEach(async () => {
  url = sim.url;
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      webhook_url: receiver.url,
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      read_rate: 0,
      pair_rate_window_ms: 0,
    },
  });
  receiver.received.length = 0;
  acc = await signUpWithToken(url);
});

describe('message_send_ttl_seconds on templates', () => {
  const ranges = [
    { category: 'AUTHENTICATION', min: 30, max: 900, thirtyDays: true },
    { category: 'UTILITY', min: 30, max: 43_200, thirtyDays: true },
    { category: 'MARKETING', min: 43_200, max: THIRTY_DAYS, thirtyDays: false },
  ];

  it.each(ranges)('takes $category TTLs from $min to $max and refuses one past each edge', async (range) => {
    const prefix = range.category.toLowerCase();
    for (const ttl of [range.min, range.max]) {
      const created = await createTemplate(`${prefix}_ttl_${ttl}`, range.category, {
        message_send_ttl_seconds: ttl,
      });
      expect(created.status).toBe(200);
      expect((await readTemplate(created.body.id as string)).message_send_ttl_seconds).toBe(ttl);
    }
    for (const ttl of [range.min - 1, range.max + 1, 120.5, 'soon']) {
      const refused = await createTemplate(`${prefix}_bad_ttl`, range.category, {
        message_send_ttl_seconds: ttl,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(100);
      expect(refused.body.error.message).toContain('message_send_ttl_seconds');
      expect(refused.body.error.message).toContain(`from ${range.min} to ${range.max}`);
    }
    const thirtyDays = await createTemplate(`${prefix}_ttl_thirty_days`, range.category, {
      message_send_ttl_seconds: -1,
    });
    if (range.thirtyDays) {
      expect(thirtyDays.status).toBe(200);
      expect((await readTemplate(thirtyDays.body.id as string)).message_send_ttl_seconds).toBe(-1);
    } else {
      expect(thirtyDays.status).toBe(400);
      expect(thirtyDays.body.error).toMatchObject({ code: 100 });
      expect(thirtyDays.body.error.message).toContain('message_send_ttl_seconds');
    }
  });

  it('takes the TTL as digits (form bodies) and lists it only on templates that have one', async () => {
    const form = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      form: {
        name: 'order_update',
        language: 'en_US',
        category: 'UTILITY',
        message_send_ttl_seconds: '3600',
        components: JSON.stringify([{ type: 'BODY', text: 'Your order shipped.' }]),
      },
    });
    expect(form.status).toBe(200);
    expect((await createTemplate('plain_update', 'UTILITY')).status).toBe(200);

    const list = await call(url, `/v21.0/${acc.waba_id}/message_templates`, { token: acc.token });
    const byName = new Map(list.body.data.map((t: Json) => [t.name, t]));
    expect((byName.get('order_update') as Json).message_send_ttl_seconds).toBe(3600);
    expect(byName.get('plain_update')).not.toHaveProperty('message_send_ttl_seconds');
    const picked = await call(
      url,
      `/v21.0/${acc.waba_id}/message_templates?fields=name,message_send_ttl_seconds&name=order_update`,
      { token: acc.token },
    );
    expect(picked.body.data).toEqual([
      { id: form.body.id, name: 'order_update', message_send_ttl_seconds: 3600 },
    ]);
  });

  it('changes the TTL in an edit, checked against the category', async () => {
    const id = await approvedTemplate('shipping_notice', 'UTILITY', 3600);
    const tooLong = await call(url, `/v21.0/${id}`, {
      method: 'POST',
      token: acc.token,
      json: { message_send_ttl_seconds: 43_201 },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe(100);
    expect(tooLong.body.error.message).toContain('message_send_ttl_seconds');
    expect((await readTemplate(id)).message_send_ttl_seconds).toBe(3600);

    const edited = await call(url, `/v21.0/${id}`, {
      method: 'POST',
      token: acc.token,
      json: { message_send_ttl_seconds: 600 },
    });
    expect(edited.body).toEqual({ success: true });
    expect(await readTemplate(id)).toMatchObject({ message_send_ttl_seconds: 600, status: 'PENDING' });

    await approve(id);
    const cleared = await call(url, `/v21.0/${id}`, {
      method: 'POST',
      token: acc.token,
      json: { message_send_ttl_seconds: null },
    });
    expect(cleared.status).toBe(200);
    expect(await readTemplate(id)).not.toHaveProperty('message_send_ttl_seconds');
  });
});

describe('messages that expire undelivered', () => {
  it('expires a Marketing Messages API send at exactly acceptance + the template’s TTL', async () => {
    await approvedTemplate('flash_sale', 'MARKETING', 43_200);
    expect((await unreachable(UK)).body).toEqual({ to: UK, reachable: false });
    const wamid = await send('marketing_messages', 'flash_sale');
    await until(() => named(wamid, 'sent').length === 1);
    const entry = await logEntry(wamid);
    expect(entry).toMatchObject({ endpoint: 'marketing_messages', ttl_seconds: 43_200 });
    expect(entry).not.toHaveProperty('expired_at');

    const before = Math.floor(Date.now() / 1000);
    const early = await advance(43_199);
    expect(early.status).toBe(200);
    expect(early.body.expired).toBe(0);
    expect(early.body.now).toBeGreaterThanOrEqual(before + 43_199);
    await sleep(150);
    expect(named(wamid, 'failed')).toHaveLength(0);

    expect((await advance(1)).body.expired).toBe(1);
    await until(() => named(wamid, 'failed').length === 1);
    await sleep(150);
    expect((await advance(1)).body.expired).toBe(0);
    await sleep(100);
    const [failed] = named(wamid, 'failed');
    expect(named(wamid, 'failed')).toHaveLength(1);
    expect(failed).toEqual({
      id: wamid,
      status: 'failed',
      timestamp: String(acceptedSeconds(entry) + 43_200),
      recipient_id: UK,
      errors: [
        {
          code: 131026,
          title: 'Message undeliverable',
          message: 'Message undeliverable',
          error_data: { details: EXPIRY_DETAILS },
          href: expect.any(String),
        },
      ],
    });
    // Never delivered, so never billed: no delivered or read status, no pricing on the failure.
    expect(statusesOf(wamid).map((s) => s.status)).toEqual(['sent', 'failed']);
    const expired = await logEntry(wamid);
    expect(Date.parse(expired.expired_at as string)).toBe(
      Date.parse(entry.accepted_at as string) + 43_200_000,
    );
    expect((await call(url, '/__sandbox/clock')).body.offset_seconds).toBe(43_201);
  });

  it('keeps Meta’s 30 days for a marketing template sent through /messages', async () => {
    await approvedTemplate('flash_sale', 'MARKETING', 43_200);
    await unreachable(UK);
    const wamid = await send('messages', 'flash_sale');
    expect(await logEntry(wamid)).toMatchObject({ endpoint: 'messages', ttl_seconds: THIRTY_DAYS });
    await until(() => named(wamid, 'sent').length === 1);
    expect((await advance(43_200)).body.expired).toBe(0);
    expect((await advance(THIRTY_DAYS - 43_200 - 1)).body.expired).toBe(0);
    expect((await advance(1)).body.expired).toBe(1);
    await until(() => named(wamid, 'failed').length === 1);
  });

  it('never expires a delivered message', async () => {
    await approvedTemplate('login_code', 'AUTHENTICATION', 30);
    const wamid = await send('messages', 'login_code');
    await until(() => named(wamid, 'delivered').length === 1);
    expect((await logEntry(wamid)).ttl_seconds).toBe(30);
    expect((await advance(2 * THIRTY_DAYS)).body.expired).toBe(0);
    await sleep(150);
    expect(named(wamid, 'failed')).toHaveLength(0);
    expect(await logEntry(wamid)).not.toHaveProperty('expired_at');
  });

  it('expires an authentication message by itself once its 30 seconds have passed', async () => {
    await approvedTemplate('login_code', 'AUTHENTICATION', 30);
    await unreachable(UK);
    const wamid = await send('messages', 'login_code');
    const entry = await logEntry(wamid);
    // 28 of the 30 seconds on the clock; the last 2 pass in real time, with no call to the sandbox.
    expect((await advance(28)).body.expired).toBe(0);
    await until(() => named(wamid, 'failed').length === 1, 5000);
    expect(named(wamid, 'failed')[0].timestamp).toBe(String(acceptedSeconds(entry) + 30));
    expect((await logEntry(wamid)).expired_at).toBeDefined();
  });

  it('applies the category’s default when a template has no TTL of its own', async () => {
    await approvedTemplate('login_code', 'AUTHENTICATION');
    await approvedTemplate('order_update', 'UTILITY', -1);
    expect((await logEntry(await send('messages', 'login_code'))).ttl_seconds).toBe(600);
    expect((await logEntry(await send('messages', 'order_update'))).ttl_seconds).toBe(THIRTY_DAYS);
  });
});

describe('control routes', () => {
  it('makes a recipient reachable again for later messages', async () => {
    await approvedTemplate('order_update', 'UTILITY');
    await unreachable(UK);
    const off = await send('messages', 'order_update');
    await until(() => named(off, 'sent').length === 1);
    expect((await unreachable(`+${UK}`, true)).body).toEqual({ to: UK, reachable: true });
    const on = await send('messages', 'order_update');
    await until(() => named(on, 'delivered').length === 1);
    expect(named(off, 'delivered')).toHaveLength(0);
  });

  it('refuses a bad clock move or recipient with (#100) naming the parameter', async () => {
    for (const seconds of [0, -5, 1.5, 'soon', undefined]) {
      const refused = await advance(seconds);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(100);
      expect(refused.body.error.message).toContain('advance_seconds');
    }
    const clock = await call(url, '/__sandbox/clock');
    expect(clock.body.offset_seconds).toBe(0);
    expect(Math.abs(clock.body.now - Date.now() / 1000)).toBeLessThan(5);

    const maybe = await call(url, `/__sandbox/recipients/${UK}`, {
      method: 'POST',
      json: { reachable: 'maybe' },
    });
    expect(maybe.status).toBe(400);
    expect(maybe.body.error.message).toContain('reachable');
    const notANumber = await unreachable('12ab');
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.error.message).toContain('number');
  });
});

describe('across a restart', () => {
  it('keeps template TTLs, unreachable recipients, the clock and messages still to expire', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-ttl-restart-'));
    const logFile = join(dir, 'calls.jsonl');
    const options = { port: 0, logFile, reviewDelayMs: 600_000, webhookUrl: receiver.url };
    let sandbox = await startSandbox(options);
    try {
      url = sandbox.url;
      await call(url, '/__sandbox/config', {
        method: 'POST',
        json: { status_delays_ms: { sent: 20, delivered: 40, read: 60 }, pair_rate_window_ms: 0 },
      });
      acc = await signUpWithToken(url);
      const id = await approvedTemplate('flash_sale', 'MARKETING', 43_200);
      await unreachable(UK);
      const wamid = await send('marketing_messages', 'flash_sale');
      await until(() => named(wamid, 'sent').length === 1);
      expect((await advance(100)).body.expired).toBe(0);
      await sandbox.close();

      sandbox = await startSandbox(options);
      url = sandbox.url;
      expect((await readTemplate(id)).message_send_ttl_seconds).toBe(43_200);
      expect((await call(url, '/__sandbox/clock')).body.offset_seconds).toBe(100);
      const state = await call(url, '/__sandbox/state');
      expect(state.body.messaging).toMatchObject({ pending_expiries: 1, unreachable_recipients: [UK] });
      expect((await advance(43_100)).body.expired).toBe(1);
      await until(() => named(wamid, 'failed').length === 1);
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
