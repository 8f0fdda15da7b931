import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

// Meta's 2026 sending rules in the sandbox, through its control API: portfolio limits, pacing, pauses,
// the per-user marketing limit and phone quality.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;
let dir: string;

const US = (n: number) => `1650555${String(n).padStart(4, '0').replace(/0000$/, '0001')}`;
const UK = (n: number) => `4477009${String(n).padStart(5, '0').replace(/0000$/, '0001')}`;

const send = (to: string, name = 'order_update', acc: SignedUp = account) =>
  call(url, `/v21.0/${acc.phone_number_id}/messages`, {
    method: 'POST',
    token: acc.token,
    json: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: { name, language: { code: 'en_US' } },
    },
  });

async function approvedTemplate(name: string, category = 'UTILITY', acc = account): Promise<string> {
  const created = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: { name, language: 'en_US', category, components: [{ type: 'BODY', text: 'Hello there.' }] },
  });
  expect(created.status).toBe(200);
  await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  return created.body.id;
}

const hooks = (field: string): Json[] =>
  receiver.received.map((h) => JSON.parse(h.raw)).filter((body) => body.entry[0].changes[0].field === field);

const statusesOf = (wamid: string): Json[] =>
  hooks('messages')
    .flatMap((b) => b.entry.flatMap((e: Json) => e.changes.flatMap((c: Json) => c.value.statuses ?? [])))
    .filter((s: Json) => s.id === wamid);

async function until<T>(check: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-portfolio-'));
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, logFile: join(dir, 'calls.jsonl'), snapshotDelayMs: 20 });
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
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      delivered_rate: 1,
      read_rate: 0,
      pair_rate_window_ms: 0,
      default_messaging_limit: 'TIER_2K',
      us_marketing_rule: true,
    },
  });
  account = await signUpWithToken(url);
  await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
    method: 'POST',
    json: { mps: 5000 },
  });
  await approvedTemplate('order_update');
  receiver.received.length = 0;
});

describe('portfolio messaging limit', () => {
  it("shows the portfolio's tier on its numbers and announces a new one to each WABA", async () => {
    const numbers = await call(
      url,
      `/v21.0/${account.waba_id}/phone_numbers?fields=whatsapp_business_manager_messaging_limit`,
      { token: account.token },
    );
    expect(numbers.body.data[0].whatsapp_business_manager_messaging_limit).toBe('TIER_2K');

    const set = await call(url, `/__sandbox/portfolios/${account.business_id}`, {
      method: 'POST',
      json: { tier: 'TIER_10K' },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ business_id: account.business_id, tier: 'TIER_10K', limit: 10_000 });
    const [hook] = await until(() =>
      hooks('business_capability_update').length ? hooks('business_capability_update') : undefined,
    );
    expect(hook).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: account.waba_id,
          time: expect.any(Number),
          changes: [
            {
              field: 'business_capability_update',
              value: { max_daily_conversations_per_business: 'TIER_10K', max_phone_numbers_per_waba: 25 },
            },
          ],
        },
      ],
    });
    const after = await call(
      url,
      `/v21.0/${account.phone_number_id}?fields=whatsapp_business_manager_messaging_limit`,
      {
        token: account.token,
      },
    );
    expect(after.body.whatsapp_business_manager_messaging_limit).toBe('TIER_10K');
  });

  it('refuses the 251st unique user of a TIER_250 portfolio with 131048, and frees the window after 24 h', async () => {
    await call(url, `/__sandbox/portfolios/${account.business_id}`, {
      method: 'POST',
      json: { tier: 'TIER_250' },
    });
    // A user who wrote in is inside a customer service window: reaching them does not count.
    await call(url, '/__sandbox/inbound', {
      method: 'POST',
      json: { phone_number_id: account.phone_number_id, from: UK(999), text: 'hi' },
    });
    expect((await send(UK(999))).status).toBe(200);
    for (let i = 1; i <= 250; i += 1) expect((await send(UK(i))).status).toBe(200);

    const refused = await send(UK(251));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        message: '(#131048) Spam rate limit hit',
        type: 'OAuthException',
        code: 131048,
        error_data: {
          messaging_product: 'whatsapp',
          details:
            'Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.',
        },
        fbtrace_id: expect.any(String),
      },
    });
    // Someone already reached in the window may be messaged again.
    expect((await send(UK(7))).status).toBe(200);
    const view = (await call(url, `/__sandbox/portfolios/${account.business_id}`)).body;
    expect(view).toMatchObject({ tier: 'TIER_250', limit: 250, reached_in_window: 250, remaining: 0 });
    expect(view.window.map((r: Json) => r.to)).not.toContain(UK(999));
    expect(view.window.at(-1)).toEqual({ to: UK(7), reached_at: expect.any(String) });
    // Nothing refused was accepted.
    const accepted = (await call(url, `/__sandbox/messages?to=${UK(251)}`)).body;
    expect(accepted.total).toBe(0);

    const aged = await call(url, `/__sandbox/portfolios/${account.business_id}/advance`, {
      method: 'POST',
      json: { seconds: 23 * 3600 },
    });
    expect(aged.body.reached_in_window).toBe(250);
    expect((await send(UK(251))).status).toBe(400);
    await call(url, `/__sandbox/portfolios/${account.business_id}/advance`, {
      method: 'POST',
      json: { seconds: 3600 },
    });
    expect((await send(UK(251))).status).toBe(200);
    expect((await call(url, `/__sandbox/portfolios/${account.business_id}`)).body.reached_in_window).toBe(1);
  });

  it('gives a new portfolio the configured default tier', async () => {
    await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { default_messaging_limit: 'TIER_UNLIMITED' },
    });
    const other = await signUpWithToken(url);
    const view = (await call(url, `/__sandbox/portfolios/${other.business_id}`)).body;
    expect(view).toMatchObject({ tier: 'TIER_UNLIMITED', limit: null, remaining: null });
    // The earlier portfolio keeps what it had.
    expect((await call(url, `/__sandbox/portfolios/${account.business_id}`)).body.tier).toBe('TIER_2K');
  });

  it('answers 404 for an unknown portfolio and 400 naming the bad field', async () => {
    expect((await call(url, '/__sandbox/portfolios/123')).status).toBe(404);
    const badTier = await call(url, `/__sandbox/portfolios/${account.business_id}`, {
      method: 'POST',
      json: { tier: 'TIER_1K' },
    });
    expect(badTier.status).toBe(400);
    expect(badTier.body.error.message).toMatch(/tier must be one of TIER_250/);
    const badSeconds = await call(url, `/__sandbox/portfolios/${account.business_id}/advance`, {
      method: 'POST',
      json: { seconds: -1 },
    });
    expect(badSeconds.status).toBe(400);
    expect(badSeconds.body.error.message).toMatch(/seconds/);
    const badConfig = await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { default_messaging_limit: 'lots' },
    });
    expect(badConfig.status).toBe(400);
    expect(badConfig.body.error.message).toMatch(/default_messaging_limit/);
  });
});

describe('template pacing', () => {
  it('holds a share of sends, then releases them as sent and delivered', async () => {
    const id = (await call(url, '/__sandbox/state')).body.templates[0].id;
    const set = await call(url, `/__sandbox/templates/${id}/pacing`, {
      method: 'POST',
      json: { held_share: 1, outcome: 'release', after_ms: 300 },
    });
    expect(set.body).toEqual({ id, held_share: 1, outcome: 'release', after_ms: 300 });
    const sentAt = Date.now();
    const res = await send(UK(1));
    expect(res.status).toBe(200);
    expect(res.body.messages[0]).toEqual({
      id: expect.stringMatching(/^wamid\./),
      message_status: 'held_for_quality_assessment',
    });
    const wamid = res.body.messages[0].id;
    const statuses = await until(() => (statusesOf(wamid).length === 2 ? statusesOf(wamid) : undefined));
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered']);
    expect(receiver.received[0]!.at - sentAt).toBeGreaterThanOrEqual(300);
  });

  it('drops held messages with a failed status 132015', async () => {
    const id = (await call(url, '/__sandbox/state')).body.templates[0].id;
    await call(url, `/__sandbox/templates/${id}/pacing`, {
      method: 'POST',
      json: { held_share: 1, outcome: 'drop', after_ms: 50 },
    });
    const wamid = (await send(UK(1))).body.messages[0].id;
    const [failed] = await until(() => (statusesOf(wamid).length ? statusesOf(wamid) : undefined));
    expect(failed).toMatchObject({
      id: wamid,
      status: 'failed',
      errors: [{ code: 132015, title: 'Template is Paused' }],
    });
    const bad = await call(url, `/__sandbox/templates/${id}/pacing`, {
      method: 'POST',
      json: { held_share: 1, outcome: 'later' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/outcome/);
  });
});

describe('a template paused mid-broadcast', () => {
  it("sends Meta's webhooks and refuses sends with 132015 / 132016 until it is active again", async () => {
    const id = (await call(url, '/__sandbox/state')).body.templates[0].id;
    const paused = await call(url, `/__sandbox/templates/${id}/status`, {
      method: 'POST',
      json: { status: 'PAUSED' },
    });
    expect(paused.body).toMatchObject({ id, status: 'PAUSED', event: 'PAUSED' });
    const refused = await send(UK(1));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 132015, message: '(#132015) Template is paused' });

    await call(url, `/__sandbox/templates/${id}/status`, { method: 'POST', json: { status: 'APPROVED' } });
    expect((await send(UK(1))).status).toBe(200);
    await call(url, `/__sandbox/templates/${id}/status`, {
      method: 'POST',
      json: { status: 'DISABLED', reason: 'Too many reports' },
    });
    expect((await send(UK(2))).body.error.code).toBe(132016);
    await call(url, `/__sandbox/templates/${id}/status`, { method: 'POST', json: { status: 'APPROVED' } });

    const values = await until(() => {
      const list = hooks('message_template_status_update');
      return list.length === 4 ? list.map((b) => b.entry[0].changes[0].value) : undefined;
    });
    expect(values[0]).toEqual({
      event: 'PAUSED',
      message_template_id: Number(id),
      message_template_name: 'order_update',
      message_template_language: 'en_US',
      message_template_category: 'UTILITY',
      reason: 'NONE',
      other_info: { title: 'FIRST_PAUSE', description: expect.stringContaining('paused') },
    });
    expect(values.slice(1).map((v) => [v.event, v.other_info.title])).toEqual([
      ['APPROVED', 'UNPAUSE'],
      ['DISABLED', 'DISABLED'],
      ['REINSTATED', 'REINSTATED'],
    ]);
    expect(values[2]).toMatchObject({
      other_info: { description: 'Too many reports' },
      disable_info: { disable_date: expect.any(String) },
    });
  });

  it('refuses a status other than PAUSED, DISABLED or APPROVED, or a pause of a pending template', async () => {
    const id = (await call(url, '/__sandbox/state')).body.templates[0].id;
    const bad = await call(url, `/__sandbox/templates/${id}/status`, {
      method: 'POST',
      json: { status: 'X' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/status must be PAUSED, DISABLED or APPROVED/);
    const pending = await call(url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      json: {
        name: 'fresh',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi.' }],
      },
    });
    const res = await call(url, `/__sandbox/templates/${pending.body.id}/status`, {
      method: 'POST',
      json: { status: 'PAUSED' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/not PENDING/);
  });
});

describe('per-user marketing limit', () => {
  it('accepts a marketing template to a US number, then fails it with 131049; others are delivered', async () => {
    await approvedTemplate('summer_sale', 'MARKETING');
    const us = await send(US(1), 'summer_sale');
    expect(us.status).toBe(200);
    expect(us.body.messages[0].message_status).toBe('accepted');
    const uk = await send(UK(1), 'summer_sale');
    const utility = await send(US(2));
    const usWamid = us.body.messages[0].id;
    const [failed] = await until(() => (statusesOf(usWamid).length ? statusesOf(usWamid) : undefined));
    expect(failed).toEqual({
      id: usWamid,
      status: 'failed',
      timestamp: expect.any(String),
      recipient_id: US(1),
      errors: [
        {
          code: 131049,
          title: 'This message was not delivered to maintain healthy ecosystem engagement.',
          message: 'This message was not delivered to maintain healthy ecosystem engagement.',
          error_data: {
            details:
              'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
          },
          href: expect.stringContaining('error-codes'),
        },
      ],
    });
    for (const res of [uk, utility]) {
      const wamid = res.body.messages[0].id;
      const list = await until(() => (statusesOf(wamid).length === 2 ? statusesOf(wamid) : undefined));
      expect(list.map((s) => s.status)).toEqual(['sent', 'delivered']);
    }
    // A message Meta does not deliver reaches nobody: it does not count towards the messaging limit.
    const window = (await call(url, `/__sandbox/portfolios/${account.business_id}`)).body.window;
    expect(window.map((r: Json) => r.to).sort()).toEqual([UK(1), US(2)].sort());
  });

  it('fails the configured share of marketing sends, and follows us_marketing_rule', async () => {
    await approvedTemplate('summer_sale', 'MARKETING');
    await call(url, '/__sandbox/faults', { method: 'POST', json: { marketing_limit_rate: 1 } });
    const uk = (await send(UK(1), 'summer_sale')).body.messages[0].id;
    const [failed] = await until(() => (statusesOf(uk).length ? statusesOf(uk) : undefined));
    expect(failed.errors[0].code).toBe(131049);
    await call(url, '/__sandbox/faults', { method: 'POST', json: { marketing_limit_rate: 0 } });
    await call(url, '/__sandbox/config', { method: 'POST', json: { us_marketing_rule: false } });
    const us = (await send(US(1), 'summer_sale')).body.messages[0].id;
    const list = await until(() => (statusesOf(us).length === 2 ? statusesOf(us) : undefined));
    expect(list.map((s) => s.status)).toEqual(['sent', 'delivered']);
  });
});

describe('phone quality', () => {
  it('sets quality and status and sends phone_number_quality_update', async () => {
    const res = await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { quality_rating: 'RED' },
    });
    expect(res.body).toMatchObject({ quality_rating: 'RED', quality_update: { event: 'FLAGGED' } });
    await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { quality_rating: 'GREEN', status: 'CONNECTED' },
    });
    const values = await until(() => {
      const list = hooks('phone_number_quality_update');
      return list.length === 2 ? list.map((b) => b.entry[0].changes[0].value) : undefined;
    });
    const digits = (await call(url, '/__sandbox/state')).body.phone_numbers[0].digits;
    expect(values).toEqual([
      { display_phone_number: digits, event: 'FLAGGED', max_daily_conversations_per_business: 'TIER_2K' },
      { display_phone_number: digits, event: 'UNFLAGGED', max_daily_conversations_per_business: 'TIER_2K' },
    ]);
    const node = await call(url, `/v21.0/${account.phone_number_id}?fields=quality_rating,status`, {
      token: account.token,
    });
    expect(node.body).toEqual({ id: account.phone_number_id, quality_rating: 'GREEN', status: 'CONNECTED' });
    const bad = await call(url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
      method: 'POST',
      json: { status: 'ASLEEP' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/status must be one of CONNECTED/);
  });
});

describe('across a restart', () => {
  it('keeps the tier and the reach window', async () => {
    const stateDir = join(dir, 'restart');
    const first = await startSandbox({ port: 0, stateDir, snapshotDelayMs: 10 });
    const acc = await signUpWithToken(first.url);
    await call(first.url, `/__sandbox/portfolios/${acc.business_id}`, {
      method: 'POST',
      json: { tier: 'TIER_250' },
    });
    const created = await call(first.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: {
        name: 'hello',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi.' }],
      },
    });
    await call(first.url, `/__sandbox/templates/${created.body.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    const before = Date.now();
    const sent = await call(first.url, `/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      token: acc.token,
      json: {
        messaging_product: 'whatsapp',
        to: UK(5),
        type: 'template',
        template: { name: 'hello', language: { code: 'en_US' } },
      },
    });
    expect(sent.status).toBe(200);
    await first.close();
    const second = await startSandbox({ port: 0, stateDir });
    try {
      const view = (await call(second.url, `/__sandbox/portfolios/${acc.business_id}`)).body;
      expect(view).toMatchObject({ tier: 'TIER_250', reached_in_window: 1 });
      expect(Date.parse(view.window[0].reached_at)).toBeGreaterThanOrEqual(before - 1000);
    } finally {
      await second.close();
    }
  });
});
