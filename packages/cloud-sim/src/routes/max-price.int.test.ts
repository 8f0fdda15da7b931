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

// Meta's max price for marketing messages: `optimization_spec` on MARKETING templates (create, edit, read),
// Cloud API's refusal of such a template (131061), the MM API's per-message multiplier, and the `cost` the
// delivered status carries.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const sim = sandboxForFile('max-price');
let url: string;
let receiver: WebhookReceiver;
let acc: SignedUp;

// Not a US number: Meta does not deliver marketing templates to +1 (US) numbers. UK marketing: $0.0529.
const UK = '447700900123';
const spec = (bid_amount: unknown, bid_strategy: unknown = 'LOWEST_COST_WITH_BID_CAP') => ({
  bid_amount,
  bid_strategy,
});

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
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

const edit = (id: string, json: Record<string, unknown>) =>
  call(url, `/v21.0/${id}`, { method: 'POST', token: acc.token, json });

const read = async (id: string, fields?: string) =>
  (await call(url, `/v21.0/${id}${fields ? `?fields=${fields}` : ''}`, { token: acc.token })).body;

async function approvedTemplate(name: string, bidAmount?: number): Promise<string> {
  const created = await createTemplate(
    name,
    'MARKETING',
    bidAmount === undefined ? {} : { optimization_spec: spec(bidAmount) },
  );
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  const reviewed = await call(url, `/__sandbox/templates/${id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  expect(reviewed.status).toBe(200);
  return id;
}

const send = (
  endpoint: 'messages' | 'marketing_messages',
  name: string,
  extra: Record<string, unknown> = {},
) =>
  call(url, `/v21.0/${acc.phone_number_id}/${endpoint}`, {
    method: 'POST',
    token: acc.token,
    json: {
      messaging_product: 'whatsapp',
      to: UK,
      type: 'template',
      template: { name, language: { code: 'en_US' } },
      ...extra,
    },
  });

/** The pricing of the message's delivered status, once it came. */
async function deliveredPricing(wamid: string): Promise<Json> {
  return until(
    () =>
      receiver.received
        .flatMap((hook) =>
          JSON.parse(hook.raw).entry.flatMap((e: Json) =>
            e.changes.flatMap((c: Json) => c.value.statuses ?? []),
          ),
        )
        .find((s: Json) => s.id === wamid && s.status === 'delivered')?.pricing,
  );
}

function expectRefused(answer: { status: number; body: Json }, field: string) {
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe(100);
  expect(answer.body.error.message).toContain(field);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

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

describe('optimization_spec on templates', () => {
  it('is kept on a marketing template and read back, also alone by fields=optimization_spec', async () => {
    const id = await approvedTemplate('seasonal_sale', 87_000);
    const expected = { bid_strategy: 'LOWEST_COST_WITH_BID_CAP', bid_amount: 87_000 };
    expect((await read(id)).optimization_spec).toEqual(expected);
    expect(await read(id, 'optimization_spec')).toEqual({ id, optimization_spec: expected });
    const plain = await approvedTemplate('no_price');
    expect((await read(plain)).optimization_spec).toBeUndefined();
  });

  it('is refused on a utility template, with a bad amount or strategy, and under its old name', async () => {
    expectRefused(await createTemplate('bill_due', 'UTILITY', { optimization_spec: spec(5000) }), 'UTILITY');
    for (const amount of [0, -5, 12.5, 2_147_483_648, 'lots']) {
      expectRefused(
        await createTemplate('sale_a', 'MARKETING', { optimization_spec: spec(amount) }),
        'optimization_spec.bid_amount',
      );
    }
    expectRefused(
      await createTemplate('sale_b', 'MARKETING', { optimization_spec: spec(5000, 'COST_CAP') }),
      'optimization_spec.bid_strategy',
    );
    expectRefused(await createTemplate('sale_c', 'MARKETING', { bid_spec: spec(5000) }), 'bid_spec');
  });

  it('needs the WABA onboarded to the Marketing Messages API', async () => {
    await call(url, '/__sandbox/config', { method: 'POST', json: { mm_api_terms_at_signup: false } });
    acc = await signUpWithToken(url);
    await call(url, '/__sandbox/config', { method: 'POST', json: { mm_api_terms_at_signup: true } });
    const refused = await createTemplate('sale_d', 'MARKETING', { optimization_spec: spec(5000) });
    expectRefused(refused, 'Marketing Messages API');
  });

  it('is changed alone by an edit, without a new review; never added or removed', async () => {
    const id = await approvedTemplate('flash_sale', 5000);
    const changed = await edit(id, { optimization_spec: spec(4000) });
    expect(changed.status).toBe(200);
    const after = await read(id);
    expect(after.optimization_spec.bid_amount).toBe(4000);
    expect(after.status).toBe('APPROVED');

    expectRefused(await edit(id, { optimization_spec: null }), "optimization_spec can't be removed");
    expectRefused(await edit(id, { optimization_spec: spec(0) }), 'optimization_spec.bid_amount');
    expectRefused(await edit(id, { bid_spec: spec(3000) }), 'bid_spec');
    const plain = await approvedTemplate('plain_sale');
    expectRefused(await edit(plain, { optimization_spec: spec(3000) }), "optimization_spec can't be added");

    // A content edit leaves the max price as it was.
    const content = await edit(id, { components: [{ type: 'BODY', text: 'New text.' }] });
    expect(content.status).toBe(200);
    expect((await read(id)).optimization_spec.bid_amount).toBe(4000);
  });
});

describe('sending a template with a max price', () => {
  it('is refused by Cloud API with 131061 and accepted by the MM API, which reports its cost', async () => {
    await approvedTemplate('promo', 2000);
    const refused = await send('messages', 'promo');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(131061);
    expect(refused.body.error.message).toContain('not supported by the Cloud API');

    const accepted = await send('marketing_messages', 'promo');
    expect(accepted.status).toBe(200);
    // Max price $0.02 per delivery, under the UK rate card's $0.0529: the sandbox charges the max price.
    const pricing = await deliveredPricing(accepted.body.messages[0].id as string);
    expect(pricing).toMatchObject({ billable: true, cost: { amount: 0.02, currency: 'USD' } });
  });

  it('scales the max price by the per-message multiplier, never above the rate card', async () => {
    await approvedTemplate('promo_x', 2000);
    const scaled = await send('marketing_messages', 'promo_x', {
      bid_spec: { per_message_bid_multiplier: 1.5 },
    });
    expect(scaled.status).toBe(200);
    expect((await deliveredPricing(scaled.body.messages[0].id)).cost.amount).toBe(0.03);
    const high = await send('marketing_messages', 'promo_x', {
      bid_spec: { per_message_bid_multiplier: 10 },
    });
    expect((await deliveredPricing(high.body.messages[0].id)).cost.amount).toBe(0.0529);
  });

  it('refuses a multiplier that is not a positive number', async () => {
    await approvedTemplate('promo_y', 2000);
    for (const multiplier of [0, -1, 'double']) {
      expectRefused(
        await send('marketing_messages', 'promo_y', { bid_spec: { per_message_bid_multiplier: multiplier } }),
        'per_message_bid_multiplier',
      );
    }
  });

  it('adds no cost to a template without a max price', async () => {
    await approvedTemplate('promo_plain');
    const sent = await send('marketing_messages', 'promo_plain');
    expect((await deliveredPricing(sent.body.messages[0].id)).cost).toBeUndefined();
  });
});

describe('across a restart', () => {
  it('keeps a template max price', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-max-price-'));
    const options = { port: 0, logFile: join(dir, 'calls.jsonl'), reviewDelayMs: 600_000 };
    let sandbox = await startSandbox(options);
    try {
      url = sandbox.url;
      acc = await signUpWithToken(url);
      const id = await approvedTemplate('kept_sale', 87_000);
      await sandbox.close();
      sandbox = await startSandbox(options);
      url = sandbox.url;
      expect((await read(id)).optimization_spec).toEqual({
        bid_strategy: 'LOWEST_COST_WITH_BID_CAP',
        bid_amount: 87_000,
      });
    } finally {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
