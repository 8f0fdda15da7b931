import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport, DashboardResponse } from '@herald/contracts';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postMessagesWebhook } from '../../webhooks/webhook-test-helpers';
import { acceptedBroadcast, accountAndNumber } from '../broadcast-test-helpers';

/**
 * No rate Herald computes passes 100 % (decision 078): for random status webhooks (sent, delivered, read,
 * failed, in any order, repeated, in one batch or several) and replies over a handful of messages, the report's
 * reply rate, the history's percentages and the Dashboard's rates stay within 0–100. The rates are divided in
 * TypeScript but counted in SQL (and the Dashboard's trigger), so the property is checked through the API.
 */
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let accountId: number;
let phoneId: number;
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'rates@acme.test');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  ({ accountId, phoneId } = await accountAndNumber(t.db.pool, wabaId));
});
afterAll(() => t.close());

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

/** One message's fate: its statuses in the order Meta posts them, and whether (and how) its recipient answers. */
const messagePlan = fc.record({
  statuses: fc.array(fc.constantFrom(...STATUSES), { maxLength: 5 }),
  reply: fc.constantFrom(null, 'text', 'button'),
});

/** A handful of messages, and how the webhooks carrying their events are cut into batches. */
const casePlan = fc.record({
  messages: fc.array(messagePlan, { minLength: 1, maxLength: 5 }),
  /** A random key per event: the events are posted in its order, `batches` of them at a time. */
  order: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
  batches: fc.integer({ min: 1, max: 3 }),
});

/** A sending broadcast of `count` messages Meta accepted, each with its wamid. */
async function acceptedBroadcastOf(count: number) {
  serial += 1;
  const name = `rates-${serial}`;
  const made = await acceptedBroadcast(
    t.db.pool,
    { accountId, phoneId },
    { count, name, serial, numberPrefix: '+4478' },
  );
  return { ...made, name };
}

const get = async <T>(url: string): Promise<T> => {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
};

type Event = { statuses?: object[]; messages?: object[] };

type CasePlan = typeof casePlan extends fc.Arbitrary<infer T> ? T : never;

async function runCase(plan: CasePlan): Promise<Record<string, number | null>> {
  const { broadcastId, name, messages } = await acceptedBroadcastOf(plan.messages.length);
  const now = Math.floor(Date.now() / 1000);
  const events: Event[] = plan.messages.flatMap((p, i) => {
    const m = messages[i]!;
    const statuses: Event[] = p.statuses.map((s) => ({
      statuses: [
        {
          id: m.wamid,
          status: s,
          recipient_id: m.number.slice(1),
          timestamp: String(now),
          ...(s === 'failed' ? { errors: [{ code: 131000, title: 'Something went wrong' }] } : {}),
        },
      ],
    }));
    const content =
      p.reply === 'text'
        ? { type: 'text', text: { body: 'Yes' } }
        : { type: 'button', button: { payload: 'MORE', text: 'More' } };
    const replies: Event[] =
      p.reply === null
        ? []
        : [
            {
              messages: [
                {
                  from: m.number.slice(1),
                  id: `wamid.rates.in.${m.id}`,
                  timestamp: String(now + 60),
                  context: { id: m.wamid },
                  ...content,
                },
              ],
            },
          ];
    return [...statuses, ...replies];
  });
  const ordered = events
    .map((event, i) => ({ event, key: plan.order[i % plan.order.length]! }))
    .sort((a, b) => a.key - b.key)
    .map((e) => e.event);
  const size = Math.max(1, Math.ceil(ordered.length / plan.batches));
  for (let start = 0; start < ordered.length; start += size) {
    const batch = ordered.slice(start, start + size);
    await postMessagesWebhook(t, wabaId, {
      statuses: batch.flatMap((e) => e.statuses ?? []),
      messages: batch.flatMap((e) => e.messages ?? []),
    });
  }

  const report = await get<BroadcastReport>(`/broadcast/${broadcastId}/recipients/`);
  const list = await get<{ results: Array<Record<string, unknown>> }>(
    `/broadcast/create/?search=${encodeURIComponent(name)}`,
  );
  const row = list.results.find((r) => r.id === broadcastId)!;
  const day = new Date().toISOString().slice(0, 10);
  const dashboard = await get<DashboardResponse>(`/dashboard/?from=${day}&to=${day}&tz=UTC`);
  return {
    reply_rate: report.reply_rate,
    ...Object.fromEntries(
      Object.entries(row).filter(([key]) => key.endsWith('_percentage')) as Array<[string, number]>,
    ),
    ...Object.fromEntries(
      dashboard.cards.filter((c) => c.unit === 'percent').map((c) => [`dashboard ${c.key}`, c.value]),
    ),
  };
}

describe('every rate within 0–100 %', () => {
  it('for random status orders, repeats, batches and replies over a handful of messages', async () => {
    await fc.assert(
      fc.asyncProperty(casePlan, async (plan) => {
        const rates = await runCase(plan);
        const outside = Object.entries(rates).filter(
          ([, value]) => value !== null && !(value >= 0 && value <= 100),
        );
        expect(outside).toEqual([]);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
