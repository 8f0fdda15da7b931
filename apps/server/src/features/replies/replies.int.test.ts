import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUntil } from '../../../../../test-support/engine-until';
import type { BroadcastReport, DashboardHeaderResponse } from '@herald/contracts';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { SecretBox } from '../../security/secret-box';
import { signedInUser } from '../auth/auth-test-helpers';
import { BroadcastEngine } from '../broadcasts/sending/broadcast-engine';
import { MessageSender } from '../broadcasts/sending/message-sender';

/**
 * Against the sandbox over HTTP: a broadcast is sent and delivered, recipients reply through the
 * sandbox's control API (a typed reply, a quick-reply press naming the message), and the delivery report shows
 * each reply, the Replied filter's count and the reply rate; the history shows Replied %. Item 3: the bell.
 */
let t: TestApp;
let headers: Record<string, string>;
let phoneNumberId: string;
let accountId: number;
let engine: BroadcastEngine;

const sandbox = async (path: string, body?: object) => {
  const response = await fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
};

const until = (check: () => Promise<boolean>, timeoutMs?: number) =>
  runUntil(t, engine, check, undefined, timeoutMs);

const get = async <T>(url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
};

const numbers = ['+14155550101', '+14155550102', '+14155550103', '+14155550104'];
let broadcastId: number;

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 30, read: 60 },
    pair_rate_window_ms: 0,
    read_rate: 0,
  });
  const owner = await signedInUser(t, 'replies@acme.test');
  phoneNumberId = owner.business.phone_number_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  accountId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id;
  engine = new BroadcastEngine({
    pool: t.db.pool,
    sender: new MessageSender(t.sandboxUrl, 'v21.0'),
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
  });

  const created = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order is ready.' }],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const templateId = created.json().id as number;
  await until(
    async () =>
      (await t.db.pool.query('select status from templates where id = $1', [templateId])).rows[0].status ===
      'APPROVED',
  );
  for (const [i, n] of numbers.entries()) {
    const contact = await t.app.inject({
      method: 'POST',
      url: '/recipient/create/',
      headers,
      payload: { customer_name: `Customer ${i}`, whatsapp_number: n },
    });
    expect(contact.statusCode, contact.body).toBe(201);
  }
  const broadcast = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: { name: 'Ready', template_id: templateId, recipients: { type: 'all', percentage: 100 } },
  });
  expect(broadcast.statusCode, broadcast.body).toBe(201);
  broadcastId = broadcast.json().id;
  await until(async () => {
    const { rows } = await t.db.pool.query(
      `select count(*) filter (where state = 'delivered')::int as n from broadcast_messages where broadcast_id = $1`,
      [broadcastId],
    );
    return rows[0].n === numbers.length;
  });
}, 60_000);
afterAll(() => t.close());

describe('replies to a broadcast, through the sandbox', () => {
  it('links a typed reply (24-hour rule) and a button press (context id), and ignores a repeated webhook', async () => {
    const wamid = (
      await t.db.pool.query(
        'select wamid from broadcast_messages where broadcast_id = $1 and whatsapp_number = $2',
        [broadcastId, numbers[1]],
      )
    ).rows[0].wamid as string;
    await sandbox('/__sandbox/inbound', {
      phone_number_id: phoneNumberId,
      from: numbers[0],
      text: 'Thank you!',
    });
    await sandbox('/__sandbox/inbound', {
      phone_number_id: phoneNumberId,
      from: numbers[1],
      button_payload: 'PICKUP',
      button_text: 'I will pick it up',
      context_id: wamid,
    });
    // A stranger writes in: kept, never linked, no contact created.
    await sandbox('/__sandbox/inbound', {
      phone_number_id: phoneNumberId,
      from: '+442071234567',
      text: 'Hello?',
    });
    await until(
      async () =>
        (
          await t.db.pool.query(
            'select count(*)::int as n from inbound_messages where waba_account_id = $1',
            [accountId],
          )
        ).rows[0].n === 3,
    );
    // Webhooks come at least once: the same messages stored again as new events change nothing.
    const { rows } = await t.db.pool.query(
      `select payload from webhook_events where payload::text like '%"messages"%' order by id desc limit 3`,
    );
    for (const row of rows)
      await t.db.pool.query('insert into webhook_events (payload) values ($1)', [row.payload]);
    t.app.webhooks.schedule();
    await t.app.webhooks.idle();

    const report = await get<BroadcastReport>(`/broadcast/${broadcastId}/recipients/`);
    expect(report.replied).toBe(2);
    expect(report.reply_rate).toBe(50);
    const byNumber = Object.fromEntries(report.results.map((r) => [r.whatsapp_number, r.reply]));
    expect(byNumber[numbers[0]!]).toMatchObject({ text: 'Thank you!', kind: 'text' });
    expect(byNumber[numbers[1]!]).toMatchObject({ text: 'I will pick it up', kind: 'button' });
    expect(byNumber[numbers[2]!]).toBeNull();

    const replied = await get<BroadcastReport>(`/broadcast/${broadcastId}/recipients/?replied=true`);
    expect(replied.count).toBe(2);
    expect(replied.results.map((r) => r.whatsapp_number)).toEqual([numbers[0], numbers[1]]);
    const notReplied = await get<BroadcastReport>(
      `/broadcast/${broadcastId}/recipients/?replied=false&outcome=delivered`,
    );
    expect(notReplied.count).toBe(2);
    const bad = await t.app.inject({
      method: 'GET',
      url: `/broadcast/${broadcastId}/recipients/?replied=yes`,
      headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('replied');

    const history = await get<{ results: Array<{ id: number; replied_percentage: number }> }>(
      '/broadcast/create/',
    );
    expect(history.results.find((r) => r.id === broadcastId)?.replied_percentage).toBe(50);

    const stranger = await t.db.pool.query(
      `select contact_id, broadcast_message_id from inbound_messages where from_number = '+442071234567'`,
    );
    expect(stranger.rows).toEqual([{ contact_id: null, broadcast_message_id: null }]);
  });

  it('rings the bell for the template review and the completed broadcast, until seen', async () => {
    await until(
      async () =>
        (await t.db.pool.query('select status from broadcasts where id = $1', [broadcastId])).rows[0]
          .status === 'completed',
    );
    const header = await get<DashboardHeaderResponse>('/dashboard/header');
    expect(header.contacts).toBe(numbers.length);
    expect(header.events.map((e) => e.kind)).toEqual(['broadcast_completed', 'template_approved']);
    expect(header.events[0]).toMatchObject({ link: `/broadcast/${broadcastId}`, unread: true });
    expect(header.unread).toBe(2);
    const seen = await t.app.inject({ method: 'POST', url: '/dashboard/header/seen', headers, payload: {} });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({ unread: 0 });
    expect((await get<DashboardHeaderResponse>('/dashboard/header')).events[0]!.unread).toBe(false);
  });
});
