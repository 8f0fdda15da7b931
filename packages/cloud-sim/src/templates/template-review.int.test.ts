import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

const SECRET = 'test-app-secret';
let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;

// Long enough that a read right after creating still finds the template PENDING on a loaded machine (at 50 ms
// the verdict sometimes came first); short enough to keep the file quick.
const REVIEW_DELAY_MS = 500;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({
    port: 0,
    appSecret: SECRET,
    reviewDelayMs: REVIEW_DELAY_MS,
    webhookUrl: receiver.url,
    webhookRetryBaseMs: 50,
  });
  url = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

beforeEach(async () => {
  await call(url, '/__sandbox/reset', { method: 'POST' });
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      review_delay_ms: REVIEW_DELAY_MS,
      webhook_url: receiver.url,
      webhook_retry_base_ms: 50,
      webhook_max_attempts: 5,
    },
  });
  const query = new URLSearchParams({ client_id: 'herald-sandbox-app', client_secret: SECRET });
  const created = await call(url, '/__sandbox/wabas', { method: 'POST', json: {} });
  query.set('code', created.body.code);
  const exchanged = await call(url, `/v21.0/oauth/access_token?${query.toString()}`);
  account = { ...created.body, token: exchanged.body.access_token };
});

afterEach(() => {
  receiver.received.length = 0;
  receiver.answers.length = 0;
});

const create = (name: string, text = 'Hello there') =>
  call(url, `/v21.0/${account.waba_id}/message_templates`, {
    method: 'POST',
    token: account.token,
    json: { name, language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text }] },
  });

const read = (id: string) =>
  call(url, `/v21.0/${id}?fields=status,rejected_reason,quality_score`, { token: account.token });

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function verify(raw: string, header: unknown): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`);
  const given = Buffer.from(String(header));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('automatic review', () => {
  it('approves an ordinary template after the delay with quality UNKNOWN, and sends a signed webhook', async () => {
    const { id } = (await create('summer_sale')).body;
    expect((await read(id)).body.status).toBe('PENDING');
    const [hook] = await receiver.waitFor(1);
    expect(hook?.headers['content-type']).toBe('application/json');
    expect(verify(hook?.raw ?? '', hook?.headers['x-hub-signature-256'])).toBe(true);
    expect(JSON.parse(hook?.raw ?? '')).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: account.waba_id,
          time: expect.any(Number),
          changes: [
            {
              value: {
                event: 'APPROVED',
                message_template_id: Number(id),
                message_template_name: 'summer_sale',
                message_template_language: 'en_US',
                message_template_category: 'MARKETING',
                reason: null,
              },
              field: 'message_template_status_update',
            },
          ],
        },
      ],
    });
    expect((await read(id)).body).toEqual({
      id,
      status: 'APPROVED',
      rejected_reason: 'NONE',
      quality_score: { score: 'UNKNOWN', date: expect.any(Number) },
    });
  });

  it('rejects by the documented rule: "reject" in the name or REJECT_ME in the body', async () => {
    const byName = (await create('promo_reject_scam')).body.id;
    const byBody = (await create('plain_name', 'Hi REJECT_ME')).body.id;
    const hooks = await receiver.waitFor(2);
    const values = hooks.map((h) => JSON.parse(h.raw).entry[0].changes[0].value);
    expect(values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'REJECTED', message_template_id: Number(byName), reason: 'SCAM' }),
        expect.objectContaining({
          event: 'REJECTED',
          message_template_id: Number(byBody),
          reason: 'INVALID_FORMAT',
        }),
      ]),
    );
    expect((await read(byName)).body).toEqual({ id: byName, status: 'REJECTED', rejected_reason: 'SCAM' });
  });

  it('re-reviews an edited template: PENDING webhook, then the verdict', async () => {
    const { id } = (await create('edit_me')).body;
    await receiver.waitFor(1);
    const edit = await call(url, `/v21.0/${id}`, {
      method: 'POST',
      token: account.token,
      json: { components: [{ type: 'BODY', text: 'Now REJECT_ME' }] },
    });
    expect(edit.body).toEqual({ success: true });
    const hooks = await receiver.waitFor(3);
    expect(hooks.map((h) => JSON.parse(h.raw).entry[0].changes[0].value.event)).toEqual([
      'APPROVED',
      'PENDING',
      'REJECTED',
    ]);
  });
});

describe('forced review through the control API', () => {
  it('decides now, cancels the timer and notifies', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { review_delay_ms: 600_000 } });
    const { id } = (await create('summer_sale')).body;
    const res = await call(url, `/__sandbox/templates/${id}/review`, {
      method: 'POST',
      json: { status: 'REJECTED', reason: 'PROMOTIONAL' },
    });
    expect(res).toEqual({ status: 200, body: { id, status: 'REJECTED', rejected_reason: 'PROMOTIONAL' } });
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.raw ?? '').entry[0].changes[0].value).toMatchObject({
      event: 'REJECTED',
      reason: 'PROMOTIONAL',
    });
    expect((await call(url, '/__sandbox/state')).body.pending_reviews).toEqual([]);
    await call(url, `/__sandbox/templates/${id}/review`, { method: 'POST', json: { status: 'PAUSED' } });
    expect((await read(id)).body).toMatchObject({ status: 'PAUSED', rejected_reason: 'NONE' });
  });

  it('refuses an unknown template, status or reason', async () => {
    const { id } = (await create('summer_sale')).body;
    expect(
      (await call(url, '/__sandbox/templates/1/review', { method: 'POST', json: { status: 'APPROVED' } }))
        .status,
    ).toBe(404);
    expect(
      (await call(url, `/__sandbox/templates/${id}/review`, { method: 'POST', json: { status: 'OK' } })).body
        .error.code,
    ).toBe(100);
    expect(
      (
        await call(url, `/__sandbox/templates/${id}/review`, {
          method: 'POST',
          json: { status: 'REJECTED', reason: 'UGLY' },
        })
      ).body.error.code,
    ).toBe(100);
  });
});

describe('webhook delivery', () => {
  it('retries after a 500 with backoff until a 2xx, and records the attempts', async () => {
    // A delivery of an earlier test already on the wire when the sandbox was reset may still arrive (a loaded
    // machine): wait until nothing comes for a while, so this test's answers go to its own deliveries only.
    for (let seen = -1; seen !== receiver.received.length;) {
      seen = receiver.received.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    receiver.received.length = 0;
    receiver.answers.push(500, 503);
    const { id } = (await create('summer_sale')).body;
    const hooks = await receiver.waitFor(3);
    expect(hooks.map((h) => h.raw)).toEqual([hooks[0]?.raw, hooks[0]?.raw, hooks[0]?.raw]);
    expect((hooks[2]?.at ?? 0) - (hooks[1]?.at ?? 0)).toBeGreaterThanOrEqual(90);
    const state = await until(
      () => call(url, '/__sandbox/state'),
      (s) => s.body.webhook_deliveries[0]?.status === 'delivered',
    );
    const [delivery] = state.body.webhook_deliveries;
    expect(delivery).toMatchObject({
      url: receiver.url,
      field: 'message_template_status_update',
      waba_id: account.waba_id,
      status: 'delivered',
      signature: expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
    });
    expect(delivery.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([500, 503, 200]);
    expect(delivery.body.entry[0].changes[0].value.message_template_id).toBe(Number(id));
  });

  it('gives up after the configured attempts', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { webhook_max_attempts: 2 } });
    receiver.answers.push(500, 500, 500);
    await create('summer_sale');
    await receiver.waitFor(2);
    const state = await until(
      () => call(url, '/__sandbox/state'),
      (s) => s.body.webhook_deliveries[0]?.status === 'failed',
    );
    expect(state.body.webhook_deliveries[0].attempts).toHaveLength(2);
  });

  it("sends to the subscription's override_callback_uri when one is set", async () => {
    const other = await startWebhookReceiver();
    try {
      await call(url, `/v21.0/${account.waba_id}/subscribed_apps`, {
        method: 'POST',
        token: account.token,
        json: { override_callback_uri: other.url, verify_token: 'v' },
      });
      await create('summer_sale');
      await other.waitFor(1);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('records a no_target delivery when no webhook URL is set', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { webhook_url: null } });
    await create('summer_sale');
    const state = await until(
      () => call(url, '/__sandbox/state'),
      (s) => s.body.webhook_deliveries.length > 0,
    );
    expect(state.body.webhook_deliveries[0]).toMatchObject({ url: null, status: 'no_target', attempts: [] });
  });
});

describe('closing', () => {
  it('cancels pending reviews and webhook retries, so close() returns promptly', async () => {
    const own = await startSandbox({
      port: 0,
      reviewDelayMs: 10,
      webhookUrl: receiver.url,
      webhookRetryBaseMs: 60_000,
    });
    const acc = await signUpWithToken(own.url);
    receiver.answers.push(500);
    await call(own.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: { name: 'a', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'x' }] },
    });
    await call(own.url, '/__sandbox/config', { method: 'POST', json: { review_delay_ms: 600_000 } });
    await call(own.url, `/v21.0/${acc.waba_id}/message_templates`, {
      method: 'POST',
      token: acc.token,
      json: { name: 'b', language: 'en', category: 'UTILITY', components: [{ type: 'BODY', text: 'x' }] },
    });
    await receiver.waitFor(1);
    const state = await until(
      () => call(own.url, '/__sandbox/state'),
      (s) => s.body.webhook_deliveries[0]?.attempts.length === 1,
    );
    expect(state.body.pending_reviews).toHaveLength(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
