import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardHeaderResponse, DashboardResponse } from '@herald/contracts';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { settleMessages } from '../broadcasts/sending/message-settle';
import { multipart } from '../contacts/contacts-test-helpers';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';

/**
 * Every card's definition on a known data set, the previous period's change, a day's
 * boundaries in the user's time zone, and the hourly figures equal to a recount from the message rows after
 * duplicated and reordered webhooks (signed, over HTTP).
 */
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let accountId: number;
let phoneId: number;
let other: { headers: Record<string, string> };

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'dashboard@acme.test');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  const account = await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [wabaId]);
  accountId = account.rows[0].id;
  phoneId = (
    await t.db.pool.query('select id::int from phone_numbers where waba_account_id = $1', [accountId])
  ).rows[0].id;
  const second = await signedInUser(t, 'other@acme.test', 'Other Shop');
  other = {
    headers: { authorization: `Bearer ${second.accessToken}`, 'x-waba-id': second.business.waba_id },
  };
});
afterAll(() => t.close());

let serial = 0;

/** A broadcast of `numbers` whose messages Meta accepted at `at` (through the sender's settle, as in a send). */
async function sentBroadcast(numbers: string[], at: Date, category = 'MARKETING') {
  serial += 1;
  const s = serial;
  const template = await t.db.pool.query(
    `insert into templates (waba_account_id, name, language, category, status, components)
     values ($1, $2, 'en_US', $3, 'APPROVED', '[]') returning id::int`,
    [accountId, `dash_${serial}`, category],
  );
  const broadcast = await t.db.pool.query(
    `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                             audience, scheduled_at, status, started_at, total_recipients)
     values ($1, $2, $3, $4, 'en_US', $4, '{}', $5, 'sending', $5, $6) returning id::int`,
    [accountId, phoneId, template.rows[0].id, `dash_${serial}`, at, numbers.length],
  );
  const id = broadcast.rows[0].id as number;
  const rows = await t.db.pool.query<{ id: number; whatsapp_number: string }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state)
     select (select waba_account_id from broadcasts where id = $1), $1, n, 'sending' from unnest($2::text[]) n returning id::int, whatsapp_number`,
    [id, numbers],
  );
  await settleMessages(
    t.db.pool,
    accountId,
    rows.rows.map((r) => ({
      id: r.id,
      state: 'accepted' as const,
      wamid: `wamid.${s}.${r.whatsapp_number}`,
      at,
    })),
  );
  return { id, wamid: (n: string) => `wamid.${s}.${n}` };
}

const status = (wamid: string, s: string, n: string) => ({
  id: wamid,
  status: s,
  recipient_id: n.slice(1),
  timestamp: String(Math.floor(Date.now() / 1000)),
  ...(s === 'failed' ? { errors: [{ code: 131000, title: 'Something went wrong' }] } : {}),
});

const inbound = (n: string, id: string, at: Date, content: object) => ({
  from: n.slice(1),
  id,
  timestamp: String(Math.floor(at.getTime() / 1000)),
  ...content,
});

async function dashboard(query: string, h = headers): Promise<DashboardResponse> {
  const response = await t.app.inject({ method: 'GET', url: `/dashboard/?${query}`, headers: h });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
const card = (d: DashboardResponse, key: string) => d.cards.find((c) => c.key === key)!;

/** Recounts the hourly figures from the message rows, by the definitions (docs/dashboard.md), not the trigger's SQL. */
async function recount() {
  const { rows } = await t.db.pool.query(
    `select b.waba_account_id::int, date_trunc('hour', coalesce(m.accepted_at, m.failed_at)) as hour,
            b.template_category as category,
            count(m.accepted_at)::int as sent, count(m.delivered_at)::int as delivered, count(m.read_at)::int as read,
            count(*) filter (where m.state = 'failed')::int as failed,
            count(*) filter (where m.delivered_at is not null and m.replied_at <= m.delivered_at + interval '24 hours')::int as replied,
            count(*) filter (where m.delivered_at is not null and m.engaged_at is not null)::int as engaged,
            coalesce(sum(greatest(0, extract(epoch from m.replied_at - m.delivered_at)::bigint))
                     filter (where m.replied_at <= m.delivered_at + interval '24 hours'), 0)::int as response_seconds
       from broadcast_messages m join broadcasts b on b.id = m.broadcast_id
      where coalesce(m.accepted_at, m.failed_at) is not null
      group by 1, 2, 3 order by 1, 2, 3`,
  );
  const kept = await t.db.pool.query(
    `select waba_account_id::int, hour, category, sent::int, delivered::int, read::int, failed::int, replied::int,
            engaged::int, response_seconds::int
       from dashboard_hours
      where sent <> 0 or delivered <> 0 or read <> 0 or failed <> 0 or replied <> 0 or engaged <> 0
      order by 1, 2, 3`,
  );
  return { recounted: rows, kept: kept.rows };
}

describe('GET /dashboard/ on a known data set', () => {
  // 10 sent an hour ago: 8 delivered, 5 of them read, 2 failed; 2 written replies and 1 button press.
  const numbers = Array.from({ length: 10 }, (_, i) => `+3361234${String(5000 + i)}`);
  const at = new Date(Date.now() - 60 * 60 * 1000);
  let wamid: (n: string) => string;

  beforeAll(async () => {
    for (const [i, n] of numbers.entries()) {
      await t.db.pool.query(
        `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)`,
        [accountId, `Contact ${i}`, n],
      );
    }
    ({ wamid } = await sentBroadcast(numbers, at));
    const delivered = numbers.slice(0, 8);
    const read = numbers.slice(0, 5);
    const failed = numbers.slice(8);
    // Reordered (read before delivered) and duplicated, in several deliveries.
    await postMessagesWebhook(t, wabaId, { statuses: read.map((n) => status(wamid(n), 'read', n)) });
    await postMessagesWebhook(t, wabaId, {
      statuses: [...delivered, ...delivered].map((n) => status(wamid(n), 'delivered', n)),
    });
    await postMessagesWebhook(t, wabaId, { statuses: failed.map((n) => status(wamid(n), 'failed', n)) });
    await postMessagesWebhook(t, wabaId, { statuses: read.map((n) => status(wamid(n), 'read', n)) });
    await postMessagesWebhook(t, wabaId, { statuses: delivered.map((n) => status(wamid(n), 'sent', n)) });
    const replyAt = new Date(Date.now() + 10 * 60 * 1000);
    const messages = [
      // By context: the message's wamid.
      inbound(numbers[0]!, 'wamid.in.1', replyAt, {
        type: 'text',
        text: { body: 'Yes please' },
        context: { id: wamid(numbers[0]!) },
      }),
      // By the 24-hour rule: no context.
      inbound(numbers[1]!, 'wamid.in.2', replyAt, {
        type: 'image',
        image: { caption: 'this one', id: 'm1' },
      }),
      inbound(numbers[2]!, 'wamid.in.3', replyAt, {
        type: 'button',
        button: { payload: 'MORE', text: 'Tell me more' },
        context: { id: wamid(numbers[2]!) },
      }),
    ];
    await postMessagesWebhook(t, wabaId, { messages });
    // Meta delivers at least once: the same messages again change nothing.
    await postMessagesWebhook(t, wabaId, { messages: messages.reverse() });
  });

  it('gives each card its exact value', async () => {
    // The replies come 10 minutes from now (after their delivery, which is stored as it is processed): the range
    // ends on the Paris day they fall on, which is tomorrow when this runs in the last 10 minutes of a Paris
    // day, else today, as the default range.
    const replyDay = new Date(Date.now() + 11 * 60 * 1000).toLocaleDateString('en-CA', {
      timeZone: 'Europe/Paris',
    });
    const d = await dashboard(`tz=Europe/Paris&to=${replyDay}`);
    const rows = await t.db.pool.query(
      `select extract(epoch from replied_at - delivered_at)::float8 as s from broadcast_messages
        where replied_at is not null and broadcast_id = (select max(id) from broadcasts)`,
    );
    expect(rows.rows).toHaveLength(2);
    const avg = Math.round(rows.rows.reduce((sum, r) => sum + Math.max(0, Math.round(r.s)), 0) / 2);
    expect(Object.fromEntries(d.cards.map((c) => [c.key, c.value]))).toEqual({
      total_messages: 10,
      delivery_rate: 80,
      read_rate: 62.5,
      response_rate: 25,
      // Postgres rounds each response to whole seconds (extract(epoch …)::bigint), as here.
      avg_response_time: avg,
      failed_messages: 2,
      engagement_rate: 37.5,
      active_contacts: 10,
    });
    expect(card(d, 'avg_response_time').value).toBeGreaterThan(500);
    expect(d.empty).toBe(false);
    expect(d.categories).toEqual([{ category: 'MARKETING', sent: 10 }]);
    const today = d.days.find((day) => day.sent > 0)!;
    expect(today).toMatchObject({ sent: 10, delivered: 8, read: 5, failed: 2, replied: 2, engaged: 3 });
    expect(d.days).toHaveLength(30);
    expect(d.recent_activity[0]).toMatchObject({
      kind: 'broadcast',
      link: expect.stringMatching(/^\/broadcast\/\d+$/),
    });
  });

  it('keeps hourly figures equal to a recount from the message rows', async () => {
    const { recounted, kept } = await recount();
    expect(kept).toEqual(recounted);
  });

  it('stores replies with their kind and links, and the contact only when known', async () => {
    await postMessagesWebhook(t, wabaId, {
      messages: [
        inbound('+4915112345678', 'wamid.in.unknown', new Date(), { type: 'text', text: { body: 'Who?' } }),
      ],
    });
    const { rows } = await t.db.pool.query(
      `select wamid, kind, body, contact_id is not null as known, broadcast_message_id is not null as linked
         from inbound_messages where waba_account_id = $1 order by wamid`,
      [accountId],
    );
    expect(rows).toEqual([
      { wamid: 'wamid.in.1', kind: 'text', body: 'Yes please', known: true, linked: true },
      { wamid: 'wamid.in.2', kind: 'image', body: 'this one', known: true, linked: true },
      { wamid: 'wamid.in.3', kind: 'button', body: 'Tell me more', known: true, linked: true },
      { wamid: 'wamid.in.unknown', kind: 'text', body: 'Who?', known: false, linked: false },
    ]);
    const contacts = await t.db.pool.query(
      'select count(*)::int as n from contacts where whatsapp_number = $1',
      ['+4915112345678'],
    );
    expect(contacts.rows[0].n).toBe(0);
  });

  it('shows another account none of these figures, and the empty state', async () => {
    const d = await dashboard('', other.headers);
    expect(d.empty).toBe(true);
    expect(d.cards.every((c) => c.value === 0 || c.value === null)).toBe(true);
  });

  it('refuses bad input with 400 naming the field', async () => {
    for (const [query, field] of [
      ['tz=Mars/Olympus', 'tz'],
      ['from=2026-02-30', 'from'],
      ['from=2026-03-10&to=2026-03-01', 'to'],
      ['from=2024-01-01&to=2026-01-01', 'to'],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/dashboard/?${query}`, headers });
      expect(response.statusCode, query).toBe(400);
      expect(JSON.stringify(response.json()), query).toContain(field);
    }
  });
});

describe('day boundaries and the previous period', () => {
  it('counts a message on its local day in the user’s time zone, against the day before', async () => {
    // 23:30 UTC on 10 January is 00:30 on the 11th in Paris; 22:30 UTC is 23:30 on the 10th.
    await sentBroadcast(['+33700000001', '+33700000002', '+33700000003'], new Date('2026-01-10T22:30:00Z'));
    await sentBroadcast(['+33700000004'], new Date('2026-01-10T23:30:00Z'), 'UTILITY');
    const paris = await dashboard('from=2026-01-11&to=2026-01-11&tz=Europe/Paris');
    expect(card(paris, 'total_messages')).toMatchObject({ value: 1, previous: 3, change: -66.7 });
    expect(card(paris, 'active_contacts')).toMatchObject({ value: 1, previous: 3 });
    expect(paris.previous_range).toEqual({ from: '2026-01-10', to: '2026-01-10' });
    expect(paris.categories).toEqual([{ category: 'UTILITY', sent: 1 }]);
    const utc = await dashboard('from=2026-01-10&to=2026-01-10&tz=UTC');
    expect(card(utc, 'total_messages')).toMatchObject({ value: 4, previous: 0, change: null });
    const csv = await t.app.inject({
      method: 'GET',
      url: '/dashboard/export.csv?from=2026-01-10&to=2026-01-11&tz=Europe/Paris',
      headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')).toEqual([
      'date,sent,delivered,read,failed,replied,engaged,delivery_rate,read_rate,response_rate,engagement_rate,avg_response_seconds,clicked',
      '2026-01-10,3,0,0,0,0,0,0,,,,,0',
      '2026-01-11,1,0,0,0,0,0,0,,,,,0',
      '',
    ]);
  });
});

describe('header and recent activity', () => {
  it('counts contacts, lists a finished import with its figures, and clears the badge once seen', async () => {
    const body = multipart([
      { name: 'tag', value: 'spring' },
      { name: 'file', filename: 'c.csv', content: 'name,number\nAna,+34600000001\nBo,+34600000002\n' },
    ]);
    const imported = await t.app.inject({
      method: 'POST',
      url: '/recipient/import/',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const header = await t.app.inject({ method: 'GET', url: '/dashboard/header', headers });
    const h = header.json() as DashboardHeaderResponse;
    expect(h.contacts).toBe(
      (await t.db.pool.query('select total::int from contact_counts where waba_account_id = $1', [accountId]))
        .rows[0].total,
    );
    expect(h.events[0]).toMatchObject({
      kind: 'import_finished',
      detail: '2 created, 0 updated · tag spring',
      link: '/customers',
      unread: true,
    });
    expect(h.unread).toBe(1);
    const activity = (await dashboard('')).recent_activity;
    expect(activity[0]).toMatchObject({ kind: 'import', link: '/customers' });
    // Another business sees none of it.
    const theirs = await t.app.inject({ method: 'GET', url: '/dashboard/header', headers: other.headers });
    expect(theirs.json()).toMatchObject({ contacts: 0, events: [], unread: 0 });
    // A mark before the event leaves it unread (an offset Postgres's own input would refuse is still a 200).
    const early = await t.app.inject({
      method: 'POST',
      url: '/dashboard/header/seen',
      headers,
      payload: { up_to: '1875-11-19T04:54:11-22:32' },
    });
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json()).toEqual({ unread: 1 });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/dashboard/header/seen',
      headers,
      payload: { up_to: 'soon' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('up_to');
    const seen = await t.app.inject({ method: 'POST', url: '/dashboard/header/seen', headers, payload: {} });
    expect(seen.json()).toEqual({ unread: 0 });
  });
});
