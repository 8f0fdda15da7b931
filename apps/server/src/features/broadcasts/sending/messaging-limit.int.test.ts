import { overLimitMessage } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postSignedWebhook } from '../../webhooks/webhook-test-helpers';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender } from './message-sender';

// The sending number, the portfolio's 24-hour messaging limit and US numbers,
// against the sandbox over HTTP: its call log is the ground truth of what reached "Meta".

let t: TestApp;
let sender: MessageSender;
const engines: BroadcastEngine[] = [];

/** The fields these tests read from the sandbox's control answers (a number's node, a portfolio). */
interface SandboxAnswer {
  id: string;
  display_phone_number: string;
  reached_in_window: number;
}

const sandbox = async <T = SandboxAnswer>(path: string, body?: object): Promise<T> => {
  const response = await fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
};

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

function newEngine() {
  const engine = new BroadcastEngine({
    pool: t.db.pool,
    sender,
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
    mpsOverride: 1_000,
  });
  engines.push(engine);
  return engine;
}

interface Account {
  business: { waba_id: string; phone_number_id: string; business_id: string };
  headers: Record<string, string>;
  id: number;
  templateId: number;
}

/** A signed-up business with `contacts` numbers (from `numberOf(i)`) and an approved template. */
async function account(
  email: string,
  contacts: number,
  category = 'UTILITY',
  numberOf?: (i: number) => string,
) {
  const owner = await signedInUser(t, email, email.split('@')[0]);
  const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const id = (
    await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  )[0]!.id;
  const prefix = 1_000_000 + id * 1_000;
  await q(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select $1, 'Person ' || i, coalesce(($3::text[])[i], '+4477' || ($2 + i)::text) from generate_series(1, $4) i`,
    [id, prefix * 10, numberOf ? Array.from({ length: contacts }, (_, i) => numberOf(i)) : [], contacts],
  );
  // Sends at 1,000 mps in the sandbox too, so the limit, not the throughput, is what these tests meet.
  await sandbox(`/__sandbox/phone-numbers/${owner.business.phone_number_id}`, { mps: 1_000 });
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: `note_${String.fromCharCode(97 + (id % 26))}`,
      language: 'en_US',
      category,
      components: [{ type: 'BODY', text: 'Hello {{1}}, news.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  if (template.statusCode !== 201) throw new Error(`template: ${template.body}`);
  const templateId = template.json().id as number;
  await until(
    async () =>
      (await q<{ status: string }>('select status from templates where id = $1', [templateId]))[0]!.status ===
      'APPROVED',
  );
  return { business: owner.business, headers, id, templateId } satisfies Account;
}

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await t.app.webhooks.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ticks the engines (in parallel, like separate workers) until `check` holds. */
async function runUntil(check: () => Promise<boolean>, workers = [engines[0]!], timeoutMs = 20_000) {
  await until(async () => {
    await Promise.all(workers.map((engine) => engine.tick()));
    await Promise.all(workers.map((engine) => engine.idle()));
    await t.app.webhooks.idle();
    return check();
  }, timeoutMs);
}

const create = (a: Account, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers: a.headers,
    payload: {
      name: 'News',
      template_id: a.templateId,
      recipients: { type: 'all', percentage: 100 },
      ...body,
    },
  });

const estimate = (a: Account, body: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/broadcast/estimate/',
    headers: a.headers,
    payload: { template_id: a.templateId, recipients: { type: 'all', percentage: 100 }, ...body },
  });

const broadcast = async (id: number) =>
  (
    await q<{ status: string; waiting_until: Date | null; total_recipients: number }>(
      'select * from broadcasts where id = $1',
      [id],
    )
  )[0]!;

const sentFrom = (phoneNumberId: string) =>
  sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=1`) as Promise<{
    total: number;
    unique_recipients: number;
    duplicate_recipients: unknown[];
  }>;

/** Meta's webhook for one change of the account, signed, applied before it returns. */
async function webhook(wabaId: string, field: string, value: object) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field, value }] }],
  });
  expect((await postSignedWebhook(t, body)).statusCode).toBe(200);
  await t.app.webhooks.idle();
}

/** What 24 hours and two minutes passing does to Herald's window and to a broadcast's wait. */
async function passDay(a: Account) {
  await q(
    `update portfolio_reach set reached_at = reached_at - interval '24 hours 2 minutes'
      where portfolio = (select portfolio_key(user_id, business_id, waba_id) from waba_accounts where id = $1)`,
    [a.id],
  );
  await q(
    `update broadcasts set waiting_until = waiting_until - interval '24 hours 2 minutes' where waba_account_id = $1`,
    [a.id],
  );
  await sandbox(`/__sandbox/portfolios/${a.business.business_id}/advance`, { seconds: 24 * 3600 + 120 });
}

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
  });
  sender = new MessageSender(t.sandboxUrl, 'v21.0');
  newEngine();
});

afterAll(async () => {
  for (const engine of engines) await engine.stop();
  sender?.close();
  await t.close();
});

describe('the sending number', () => {
  let a: Account;
  let second: { id: string; display_phone_number: string };

  beforeAll(async () => {
    a = await account('numbers@limit.test', 30);
    second = await sandbox(`/__sandbox/wabas/${a.business.waba_id}/phone-numbers`, {});
    await sandbox(`/__sandbox/phone-numbers/${second.id}`, { mps: 1_000 });
  });

  it('lists the numbers with Meta’s status and stores them for sending', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/meta/phone/whatsapp/', headers: a.headers });
    expect(response.statusCode).toBe(200);
    const numbers = response.json().data as Array<{ id: string; status: string | null }>;
    expect(numbers.map((n) => [n.id, n.status])).toEqual([
      [a.business.phone_number_id, 'CONNECTED'],
      [second.id, 'CONNECTED'],
    ]);
    const stored = await q(
      'select phone_number_id, status from phone_numbers where waba_account_id = $1 order by id',
      [a.id],
    );
    expect(stored).toEqual([
      { phone_number_id: a.business.phone_number_id, status: 'CONNECTED' },
      { phone_number_id: second.id, status: 'CONNECTED' },
    ]);
  });

  it('sends from the chosen (second) number, and the history names it', async () => {
    const created = await create(a, { phone_number_id: second.id });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    await runUntil(async () => (await broadcast(id)).status === 'completed');
    const fromSecond = await sentFrom(second.id);
    expect(fromSecond).toMatchObject({ total: 30, unique_recipients: 30, duplicate_recipients: [] });
    expect((await sentFrom(a.business.phone_number_id)).total).toBe(0);
    const row = await q(
      'select b.phone_number_id::int, p.phone_number_id as meta_id from broadcasts b join phone_numbers p on p.id = b.phone_number_id where b.id = $1',
      [id],
    );
    expect(row[0]!.meta_id).toBe(second.id);
    const list = await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers: a.headers });
    expect(list.statusCode).toBe(200);
    const listed = (list.json().results as Array<{ id: number; phone_number: string }>).find(
      (r) => r.id === id,
    );
    expect(listed).toMatchObject({ phone_number: second.display_phone_number, waiting_until: null });
  });

  it('refuses another account’s number with 404 and a number that cannot send with 400, naming phone_number_id', async () => {
    const other = await account('other@limit.test', 1);
    const foreign = await create(a, { phone_number_id: other.business.phone_number_id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().errors).toEqual([{ field: 'phone_number_id', message: expect.any(String) }]);

    // The sandbox flags the number and tells Herald by phone_number_quality_update, as Meta does.
    await sandbox(`/__sandbox/phone-numbers/${second.id}`, { status: 'FLAGGED', quality_rating: 'RED' });
    await until(
      async () =>
        (
          await q<{ status: string }>('select status from phone_numbers where phone_number_id = $1', [
            second.id,
          ])
        )[0]!.status === 'FLAGGED',
    );
    const flagged = await create(a, { phone_number_id: second.id });
    expect(flagged.statusCode).toBe(400);
    expect(flagged.json().errors[0]).toEqual({
      field: 'phone_number_id',
      message: 'WhatsApp flagged this number for low quality; it cannot send broadcasts until it recovers.',
    });
    const estimated = await estimate(a, { phone_number_id: second.id });
    expect(estimated.statusCode).toBe(400);

    // Herald's own reading of the signed webhook, digits only, as Meta names the number in it.
    await webhook(a.business.waba_id, 'phone_number_quality_update', {
      display_phone_number: second.display_phone_number.replace(/\D/g, ''),
      event: 'UNFLAGGED',
      max_daily_conversations_per_business: 'TIER_2K',
    });
    expect(
      (await create(a, { phone_number_id: second.id, scheduled_time: Math.floor(Date.now() / 1000) + 3600 }))
        .statusCode,
    ).toBe(201);
  });
});

describe('the portfolio messaging limit', () => {
  it('follows business_capability_update: TIER_* strings, and numbers with -1 for unlimited', async () => {
    const a = await account('tiers@limit.test', 3);
    const limitOf = async () => (await estimate(a)).json().messaging_limit;
    expect(await limitOf()).toMatchObject({ tier: 'TIER_2K', limit: 2_000, reached: 0, left: 2_000 });
    await webhook(a.business.waba_id, 'business_capability_update', {
      max_daily_conversations_per_business: 'TIER_10K',
    });
    expect(await limitOf()).toMatchObject({ tier: 'TIER_10K', limit: 10_000 });
    await webhook(a.business.waba_id, 'business_capability_update', { max_daily_conversation_per_phone: -1 });
    expect(await limitOf()).toMatchObject({ tier: 'TIER_UNLIMITED', limit: null, left: null });
    await webhook(a.business.waba_id, 'business_capability_update', {
      max_daily_conversations_per_business: 250,
    });
    expect(await limitOf()).toMatchObject({ tier: 'TIER_250', limit: 250, left: 250 });
  });

  it('estimates, refuses a too-large broadcast when spreading is off, and answers 400 for a bad body', async () => {
    const a = await account('refuse@limit.test', 300);
    await sandbox(`/__sandbox/portfolios/${a.business.business_id}`, { tier: 'TIER_250' });
    await until(async () => (await estimate(a)).json().messaging_limit.limit === 250);
    const figures = (await estimate(a)).json();
    expect(figures).toMatchObject({
      recipients: 300,
      new_recipients: 300,
      us_numbers: 0,
      template_category: 'UTILITY',
    });
    expect((await estimate(a, { recipients: { type: 'all', percentage: 50 } })).json()).toMatchObject({
      recipients: 150,
      new_recipients: 150,
    });

    const refused = await create(a, { spread_over_limit: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ field: 'recipients', message: overLimitMessage(300, 250) }]);
    expect(await q('select id from broadcasts where waba_account_id = $1', [a.id])).toEqual([]);

    const bad = await estimate(a, { recipients: { type: 'all', percentage: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('recipients.percentage');
    expect((await estimate(a, { template_id: 999_999 })).json().errors[0].field).toBe('template_id');
  });

  it('counts as new only the recipients the portfolio has not reached within 24 hours, for everyone and for a tag', async () => {
    const a = await account('window@limit.test', 10);
    const numbers = await q<{ id: number; whatsapp_number: string }>(
      'select id::int, whatsapp_number from contacts where waba_account_id = $1 order by id',
      [a.id],
    );
    // Reached in the window: contacts 0, 1 and 2, and a number that is no contact; contact 3 only 25 hours ago.
    await q(
      `with k as (insert into messaging_portfolios (key)
                  select portfolio_key(w.user_id, w.business_id, w.waba_id) from waba_accounts w where w.id = $1
                  on conflict (key) do update set key = excluded.key returning key)
       insert into portfolio_reach (portfolio, whatsapp_number, reached_at)
       select k.key, n.number, n.at from k,
              unnest($2::text[], $3::timestamptz[]) as n(number, at)`,
      [
        a.id,
        [...numbers.slice(0, 4).map((c) => c.whatsapp_number), '+447700000001'],
        [...[0, 1, 2].map(() => new Date()), new Date(Date.now() - 25 * 3_600_000), new Date()],
      ],
    );
    expect((await estimate(a)).json()).toMatchObject({ recipients: 10, new_recipients: 7 });
    // A tag on contacts 1 to 4: two of them reached.
    const tag = (
      await q<{ id: number }>(
        `insert into tags (waba_account_id, name) values ($1, 'few') returning id::int`,
        [a.id],
      )
    )[0]!.id;
    await q(
      `insert into contact_tags (waba_account_id, contact_id, tag_id) select $1, c, $2 from unnest($3::bigint[]) c`,
      [a.id, tag, numbers.slice(1, 5).map((c) => c.id)],
    );
    const tagged = { recipients: { type: 'filtered', tag_ids: [tag], percentage: 100 } };
    expect((await estimate(a, tagged)).json()).toMatchObject({ recipients: 4, new_recipients: 2 });
    // An opted-out reached contact is no recipient, new or not.
    await q('update contacts set opted_out_at = now() where id = $1', [numbers[1]!.id]);
    expect((await estimate(a, tagged)).json()).toMatchObject({ recipients: 3, new_recipients: 2 });
    expect((await estimate(a)).json()).toMatchObject({ recipients: 9, new_recipients: 7 });
  });

  it('sends up to the limit, waits for the window, then completes: nobody twice, nobody past the limit', async () => {
    const a = await account('spread@limit.test', 300);
    await sandbox(`/__sandbox/portfolios/${a.business.business_id}`, { tier: 'TIER_250' });
    await until(async () => (await estimate(a)).json().messaging_limit.limit === 250);
    const created = await create(a, {});
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;

    await runUntil(
      async () =>
        (await broadcast(id)).waiting_until !== null &&
        (await sentFrom(a.business.phone_number_id)).total === 250,
    );
    // A few more passes: nothing more leaves while it waits.
    for (let i = 0; i < 3; i += 1) await runUntil(async () => true);
    const waiting = await broadcast(id);
    expect(waiting.status).toBe('sending');
    const resumes = waiting.waiting_until!.getTime() - Date.now();
    expect(resumes).toBeGreaterThan(23.9 * 3600_000);
    expect(resumes).toBeLessThan(24.1 * 3600_000);
    expect((await sentFrom(a.business.phone_number_id)).total).toBe(250);
    expect(
      await q(
        `select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state order by state`,
        [id],
      ),
    ).toEqual(expect.arrayContaining([{ state: 'queued', n: 50 }]));
    expect(
      await q(
        'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and error_code = 131048',
        [id],
      ),
    ).toEqual([{ n: 0 }]);
    const limit = (await estimate(a)).json().messaging_limit;
    expect(limit).toMatchObject({ reached: 250, left: 0 });
    expect(new Date(limit.frees_at).getTime()).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    const list = await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers: a.headers });
    expect(list.json().results[0]).toMatchObject({ id, waiting_until: waiting.waiting_until!.toISOString() });
    const portfolio = await sandbox(`/__sandbox/portfolios/${a.business.business_id}`);
    expect(portfolio.reached_in_window).toBe(250);

    await passDay(a);
    await runUntil(async () => (await broadcast(id)).status === 'completed');
    expect((await broadcast(id)).waiting_until).toBeNull();
    expect(await sentFrom(a.business.phone_number_id)).toMatchObject({
      total: 300,
      unique_recipients: 300,
      duplicate_recipients: [],
    });
    expect(
      await q(
        'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and error_code is not null',
        [id],
      ),
    ).toEqual([{ n: 0 }]);
  });

  it('never sends past the limit with two workers and two numbers of one portfolio; a higher tier lets the rest go', async () => {
    const a = await account('workers@limit.test', 400);
    const second = await sandbox(`/__sandbox/wabas/${a.business.waba_id}/phone-numbers`, {});
    await sandbox(`/__sandbox/phone-numbers/${second.id}`, { mps: 1_000 });
    await t.app.inject({ method: 'GET', url: '/meta/phone/whatsapp/', headers: a.headers });
    await sandbox(`/__sandbox/portfolios/${a.business.business_id}`, { tier: 'TIER_250' });
    await until(async () => (await estimate(a)).json().messaging_limit.limit === 250);
    // Two tags of 200 contacts each, one broadcast per number.
    const tags = [];
    for (const half of [0, 1]) {
      const tag = (
        await q<{ id: number }>(
          `insert into tags (waba_account_id, name) values ($1, $2) returning id::int`,
          [a.id, `half ${half}`],
        )
      )[0]!.id;
      await q(
        `insert into contact_tags (waba_account_id, contact_id, tag_id)
         select c.waba_account_id, c.id, $2 from contacts c where c.waba_account_id = $1
           and (c.id % 2) = $3`,
        [a.id, tag, half],
      );
      tags.push(tag);
    }
    const ids: number[] = [];
    for (const [i, phone] of [a.business.phone_number_id, second.id].entries()) {
      const created = await create(a, {
        phone_number_id: phone,
        recipients: { type: 'filtered', tag_ids: [tags[i]], percentage: 100 },
      });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id);
    }
    const workers = [engines[0]!, newEngine()];
    const sent = async () =>
      (await sentFrom(a.business.phone_number_id)).total + (await sentFrom(second.id)).total;
    await runUntil(
      async () =>
        (await sent()) >= 250 &&
        (await q('select 1 from broadcasts where id = any($1) and waiting_until is not null', [ids])).length >
          0,
      workers,
    );
    for (let i = 0; i < 3; i += 1) await runUntil(async () => true, workers);
    expect(await sent()).toBe(250);
    expect(
      await q(
        'select count(*)::int as n from broadcast_messages where broadcast_id = any($1) and error_code = 131048',
        [ids],
      ),
    ).toEqual([{ n: 0 }]);

    await sandbox(`/__sandbox/portfolios/${a.business.business_id}`, { tier: 'TIER_2K' });
    await runUntil(
      async () => (await Promise.all(ids.map(broadcast))).every((b) => b.status === 'completed'),
      workers,
    );
    expect(await sent()).toBe(400);
    for (const phone of [a.business.phone_number_id, second.id]) {
      expect((await sentFrom(phone)).duplicate_recipients).toEqual([]);
    }
  });
});

describe('US numbers and marketing templates', () => {
  // Five US numbers, one Canadian (+1 416: not US, Meta delivers it) and four UK numbers.
  const numberOf = (i: number) =>
    i < 5 ? `+1415555${String(2000 + i)}` : i === 5 ? '+14165550100' : `+4477009${String(10000 + i)}`;

  it('counts US recipients of a marketing template before sending and leaves them out on request', async () => {
    const a = await account('us@limit.test', 10, 'MARKETING', numberOf);
    expect((await estimate(a)).json()).toMatchObject({
      recipients: 10,
      us_numbers: 5,
      template_category: 'MARKETING',
    });
    expect((await estimate(a, { leave_out_us_numbers: true })).json()).toMatchObject({
      recipients: 5,
      us_numbers: 0,
    });

    const created = await create(a, { leave_out_us_numbers: true });
    expect(created.json().total_recipients).toBe(5);
    const id = created.json().id as number;
    await runUntil(async () => (await broadcast(id)).status === 'completed');
    const numbers = await q<{ whatsapp_number: string }>(
      'select whatsapp_number from broadcast_messages where broadcast_id = $1 order by whatsapp_number',
      [id],
    );
    expect(numbers.map((n) => n.whatsapp_number)).toEqual([
      '+14165550100',
      ...Array.from({ length: 4 }, (_, i) => `+4477009${10006 + i}`),
    ]);
  });

  it('says who of the chosen contacts is left out and why, before the percentage, for everyone and for tags', async () => {
    const a = await account('left-out@limit.test', 10, 'MARKETING', numberOf);
    // One UK number and one US number opted out; two tags over the UK numbers and two US ones.
    await q(
      `update contacts set opted_out_at = now()
        where waba_account_id = $1 and whatsapp_number in ('+447700910006', '+14155552000')`,
      [a.id],
    );
    const [first, second] = await q<{ id: number }>(
      `insert into tags (waba_account_id, name) values ($1, 'First'), ($1, 'Second') returning id::int`,
      [a.id],
    );
    await q(
      `insert into contact_tags (waba_account_id, contact_id, tag_id)
       select c.waba_account_id, c.id, t.id from contacts c, tags t
        where c.waba_account_id = $1 and t.waba_account_id = $1
          and (c.whatsapp_number like '+4477%' or c.whatsapp_number in ('+14155552000', '+14155552001'))`,
      [a.id],
    );
    expect((await estimate(a)).json()).toMatchObject({
      recipients: 8,
      us_numbers: 4,
      left_out: { opted_out: 2, us_numbers: 0 },
    });
    expect((await estimate(a, { leave_out_us_numbers: true })).json()).toMatchObject({
      recipients: 4,
      us_numbers: 0,
      left_out: { opted_out: 2, us_numbers: 4 },
    });
    expect(
      (await estimate(a, { leave_out_us_numbers: true, recipients: { type: 'all', percentage: 50 } })).json(),
    ).toMatchObject({ recipients: 2, left_out: { opted_out: 2, us_numbers: 4 } });
    // A contact in both tags counts once; the US number left out is the one still opted in.
    const tagged = { type: 'filtered', tag_ids: [first!.id, second!.id], percentage: 100 };
    expect((await estimate(a, { leave_out_us_numbers: true, recipients: tagged })).json()).toMatchObject({
      recipients: 3,
      left_out: { opted_out: 2, us_numbers: 1 },
    });
    const created = await create(a, { leave_out_us_numbers: true, recipients: tagged });
    expect(created.json().total_recipients).toBe(3);
  });

  it('reports a US recipient not left out as Meta reports it (131049)', async () => {
    const a = await account('us-sent@limit.test', 10, 'MARKETING', numberOf);
    const created = await create(a, {});
    expect(created.json().total_recipients).toBe(10);
    const id = created.json().id as number;
    await runUntil(
      async () =>
        (await q('select 1 from broadcast_messages where broadcast_id = $1 and error_code = 131049', [id]))
          .length === 5,
    );
    const us = await q<{ error_code: number }>(
      `select error_code from broadcast_messages where broadcast_id = $1 and whatsapp_number like '+1415%'`,
      [id],
    );
    expect(us.map((m) => m.error_code)).toEqual([131049, 131049, 131049, 131049, 131049]);
  });

  it('does not count US numbers for a utility template, nor leave them out', async () => {
    const a = await account('us-utility@limit.test', 10, 'UTILITY', numberOf);
    expect((await estimate(a, { leave_out_us_numbers: true })).json()).toMatchObject({
      recipients: 10,
      us_numbers: 0,
    });
  });
});
