import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastReport } from '@herald/contracts';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postMessagesWebhook } from '../../webhooks/webhook-test-helpers';
import { acceptedBroadcast, accountAndNumber } from '../broadcast-test-helpers';

/**
 * Meta does not order its status webhooks, and may report a message failed after delivering it (or delivered
 * after reporting it failed). Whatever the order, in one batch or several, a message ends in the same row: a
 * delivery outranks the failure, which is kept beside it with its error, and no time Meta reported is dropped
 * (decision 078).
 */
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let accountId: number;
let phoneId: number;
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'status-order@acme.test');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  ({ accountId, phoneId } = await accountAndNumber(t.db.pool, wabaId));
});
afterAll(() => t.close());

/** A sending broadcast of `count` messages Meta accepted, each with its wamid. */
async function acceptedMessages(count: number) {
  serial += 1;
  return acceptedBroadcast(
    t.db.pool,
    { accountId, phoneId },
    { count, name: `order-${serial}`, serial, numberPrefix: '+4479' },
  );
}

type Message = Awaited<ReturnType<typeof acceptedMessages>>['messages'][number];

const status = (m: Message, s: string) => ({
  id: m.wamid,
  status: s,
  recipient_id: m.number.slice(1),
  timestamp: String(Math.floor(Date.now() / 1000)),
  ...(s === 'failed' ? { errors: [{ code: 131000, title: 'Something went wrong' }] } : {}),
});

/** Posts each message's statuses: all in one batch, or one batch per status (the i-th of every message in the i-th). */
async function post(plan: Array<{ message: Message; statuses: string[]; split: boolean }>) {
  const together = plan.filter((p) => !p.split);
  if (together.length > 0) {
    await postMessagesWebhook(t, wabaId, {
      statuses: together.flatMap((p) => p.statuses.map((s) => status(p.message, s))),
    });
  }
  const apart = plan.filter((p) => p.split);
  const rounds = Math.max(0, ...apart.map((p) => p.statuses.length));
  for (let i = 0; i < rounds; i += 1) {
    const statuses = apart.flatMap((p) => {
      const s = p.statuses[i];
      return s === undefined ? [] : [status(p.message, s)];
    });
    if (statuses.length > 0) await postMessagesWebhook(t, wabaId, { statuses });
  }
}

/** What a row keeps of its statuses: its state, which of Meta's times it holds, and its error. */
async function rowsOf(ids: number[]) {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `select id::int, state, accepted_at is not null as accepted, delivered_at is not null as delivered,
            read_at is not null as read, failed_at is not null as failed, error_code, error_title
       from broadcast_messages where id = any($1::bigint[]) order by id`,
    [ids],
  );
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

const deliveredWithError = {
  state: 'delivered',
  accepted: true,
  delivered: true,
  read: false,
  failed: true,
  error_code: 131000,
  error_title: 'Something went wrong',
};

describe('statuses of one message in any order', () => {
  it('delivered and failed, in one batch either way or across two: delivered, its delivery time and the error kept', async () => {
    const { broadcastId, messages } = await acceptedMessages(4);
    const [oneBatch, oneBatchReversed, twoBatches, twoBatchesReversed] = messages as [
      Message,
      Message,
      Message,
      Message,
    ];
    await post([
      { message: oneBatch, statuses: ['delivered', 'failed'], split: false },
      { message: oneBatchReversed, statuses: ['failed', 'delivered'], split: false },
      { message: twoBatches, statuses: ['delivered', 'failed'], split: true },
      { message: twoBatchesReversed, statuses: ['failed', 'delivered'], split: true },
    ]);
    const rows = await rowsOf(messages.map((m) => m.id));
    expect(messages.map((m) => rows.get(m.id))).toEqual(messages.map(() => deliveredWithError));

    // The report counts them delivered (Meta's error beside each); none is a failure.
    const response = await t.app.inject({
      method: 'GET',
      url: `/broadcast/${broadcastId}/recipients/`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json() as BroadcastReport;
    expect(report.outcomes.delivered).toBe(4);
    expect(report.outcomes.failed).toBe(0);
    expect(report.results.map((r) => [r.outcome, r.error_code])).toEqual(
      messages.map(() => ['delivered', 131000]),
    );
  });

  it('every order of sent, delivered, read and failed, in one batch or one status a batch, ends in the same row', async () => {
    const permutations = (items: string[]): string[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    const orders = permutations(['sent', 'delivered', 'read', 'failed']);
    const { messages } = await acceptedMessages(orders.length * 2);
    await post(
      messages.map((message, i) => ({
        message,
        statuses: orders[Math.floor(i / 2)]!,
        split: i % 2 === 1,
      })),
    );
    const rows = await rowsOf(messages.map((m) => m.id));
    expect(messages.map((m) => rows.get(m.id))).toEqual(
      messages.map(() => ({ ...deliveredWithError, state: 'read', read: true })),
    );
  });

  it('without a delivery a failure still fails the message, whatever the order of its sent', async () => {
    const { messages } = await acceptedMessages(4);
    await post(
      messages.map((message, i) => ({
        message,
        statuses: i < 2 ? ['sent', 'failed'] : ['failed', 'sent', 'failed'],
        split: i % 2 === 1,
      })),
    );
    const rows = await rowsOf(messages.map((m) => m.id));
    expect(messages.map((m) => rows.get(m.id))).toEqual(
      messages.map(() => ({ ...deliveredWithError, state: 'failed', delivered: false })),
    );
  });
});
