import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { markCountsStale, refreshBroadcastCounts } from '../broadcasts/broadcast-counts';
import { saveAccountSettings } from '../settings/settings-repo';
import { removeExpiredData } from './data-retention';

/**
 * The retention removes per-recipient rows and replies older than each account's setting,
 * in batches, and keeps every total: the broadcast's counters, its report figures, the Dashboard's hours.
 */
let t: TestApp;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

interface Account {
  id: number;
  phoneId: number;
  headers: Record<string, string>;
}

async function account(email: string, name: string): Promise<Account> {
  const user = await signedInUser(t, email, name);
  const { rows } = await t.db.pool.query<{ id: number; phone_id: number }>(
    `select a.id::int, p.id::int as phone_id from waba_accounts a join phone_numbers p on p.waba_account_id = a.id
      where a.waba_id = $1`,
    [user.business.waba_id],
  );
  const headers = { authorization: `Bearer ${user.accessToken}`, 'x-waba-id': user.business.waba_id };
  return { id: rows[0]!.id, phoneId: rows[0]!.phone_id, headers };
}

let serial = 0;

/**
 * A broadcast that ended `endedDaysAgo` (or still sends), with one message per state: the states are set by
 * an update with the times of a real send, so the Dashboard's triggers count them as they would.
 */
async function broadcast(owner: Account, endedDaysAgo: number, states: string[], status = 'completed') {
  serial += 1;
  const at = ago(endedDaysAgo);
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, started_at, completed_at, total_recipients, template_category)
     values ($1, $2, 'promo', 'en_US', $3, '{}', $4, 'sending', $4, null, $5, 'MARKETING') returning id::int`,
    [owner.id, owner.phoneId, `Retention ${serial}`, at, states.length],
  );
  const id = rows[0]!.id;
  const messages = await t.db.pool.query<{ id: number }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state)
     select (select waba_account_id from broadcasts where id = $1), $1, '+1415555' || lpad((($2::int * 100) + i)::text, 4, '0'), 'sending'
       from generate_series(1, $3::int) i returning id::int`,
    [id, serial, states.length],
  );
  await t.db.pool.query(
    `update broadcast_messages m
        set state = x.state,
            accepted_at = case when x.state <> 'failed' then $2::timestamptz end,
            delivered_at = case when x.state in ('delivered', 'read') then $2::timestamptz end,
            read_at = case when x.state = 'read' then $2::timestamptz end,
            failed_at = case when x.state = 'failed' then $2::timestamptz end
       from unnest($1::bigint[], $3::text[]) x(id, state) where m.id = x.id`,
    [messages.rows.map((m) => m.id), at, states],
  );
  await refreshBroadcastCounts(t.db.pool, [id]);
  await t.db.pool.query(
    `update broadcasts set status = $2, completed_at = case when $2 = 'completed' then $3::timestamptz end
      where id = $1`,
    [id, status, at],
  );
  return { id, messageIds: messages.rows.map((m) => m.id) };
}

/** A customer's reply sent `daysAgo`, answering `messageId` when given. */
async function reply(owner: Account, daysAgo: number, messageId?: number) {
  serial += 1;
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into inbound_messages (waba_account_id, wamid, from_number, kind, body, sent_at, broadcast_message_id)
     values ($1, $2, '+14155550000', 'text', 'Thanks', $3, $4) returning id::int`,
    [owner.id, `wamid.retention.${serial}`, ago(daysAgo), messageId ?? null],
  );
  if (messageId)
    await t.db.pool.query(
      'update broadcast_messages set reply_id = $2, engaged_at = $3 where id = $1 and reply_id is null',
      [messageId, rows[0]!.id, ago(daysAgo)],
    );
  return rows[0]!.id;
}

const counters = async (ids: number[]) =>
  (
    await t.db.pool.query(
      `select id::int, total_recipients, accepted_count, delivered_count, read_count, failed_count
         from broadcasts where id = any($1) order by id`,
      [ids],
    )
  ).rows;
const dashboard = async (owner: Account) =>
  (
    await t.db.pool.query(
      `select hour, category, sent::int, delivered::int, read::int, failed::int
         from dashboard_hours where waba_account_id = $1 order by hour, category`,
      [owner.id],
    )
  ).rows;
/** The delivery report's figures (GET /broadcast/{id}/recipients/): outcomes, replies, listed rows. */
const report = async (owner: Account, broadcastId: number) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/broadcast/${broadcastId}/recipients/`,
    headers: owner.headers,
  });
  expect(response.statusCode).toBe(200);
  const body = response.json() as { outcomes: object; replied: number; count: number; results: unknown[] };
  return { outcomes: body.outcomes, replied: body.replied, count: body.count, listed: body.results.length };
};
const messageCount = async (broadcastId: number) =>
  (
    await t.db.pool.query<{ n: number }>(
      'select count(*)::int as n from broadcast_messages where broadcast_id = $1',
      [broadcastId],
    )
  ).rows[0]!.n;
const replyExists = async (id: number) =>
  (await t.db.pool.query('select 1 from inbound_messages where id = $1', [id])).rowCount === 1;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('removeExpiredData (the daily retention job)', () => {
  it("removes message rows and replies older than each account's retention, in batches, keeping every total", async () => {
    const oneYear = await account('retention-1y@acme.test', 'One Year Shop');
    const threeYears = await account('retention-3y@acme.test', 'Three Year Shop');
    const fiveYears = await account('retention-default@acme.test', 'Default Shop');
    await saveAccountSettings(t.db.pool, oneYear.id, { retention_years: 1 });
    await saveAccountSettings(t.db.pool, threeYears.id, { retention_years: 3 });

    const states = ['read', 'delivered', 'sent', 'failed', 'read'];
    const a = {
      old: await broadcast(oneYear, 2 * 365, states),
      cancelledOld: await broadcast(oneYear, 400, ['failed', 'sent'], 'cancelled'),
      stillSending: await broadcast(oneYear, 500, ['sent', 'delivered'], 'sending'),
      recent: await broadcast(oneYear, 200, ['delivered', 'read']),
    };
    const b = {
      twoYears: await broadcast(threeYears, 2 * 365, states),
      fourYears: await broadcast(threeYears, 4 * 365, ['read', 'failed', 'delivered']),
    };
    const c = { fourYears: await broadcast(fiveYears, 4 * 365, ['read', 'sent']) };
    const replies = {
      aOld: await reply(oneYear, 2 * 365 - 1, a.old.messageIds[0]),
      aRecent: await reply(oneYear, 100, a.recent.messageIds[0]),
      bTwoYears: await reply(threeYears, 2 * 365 - 1, b.twoYears.messageIds[1]),
      bFourYears: await reply(threeYears, 4 * 365 - 1, b.fourYears.messageIds[0]),
      cFourYears: await reply(fiveYears, 4 * 365 - 1),
    };
    const all = [...Object.values(a), ...Object.values(b), ...Object.values(c)].map((x) => x.id);
    const countersBefore = await counters(all);
    const dashboardBefore = [await dashboard(oneYear), await dashboard(threeYears)];
    const reportBefore = await report(oneYear, a.old.id);
    expect(reportBefore).toMatchObject({ replied: 1, count: 5, listed: 5 });
    expect(dashboardBefore[0]!.length).toBeGreaterThan(0);

    // Batches of 2 rows: the 5 + 2 rows of the first account and the 3 of the second take several each.
    const run = await removeExpiredData(t.db.pool, 2);
    expect(run).toEqual({ messages: 5 + 2 + 3, replies: 2 });

    // One year: the two ended broadcasts older than a year lose their rows; the sending one and the recent one keep them.
    expect(await messageCount(a.old.id)).toBe(0);
    expect(await messageCount(a.cancelledOld.id)).toBe(0);
    expect(await messageCount(a.stillSending.id)).toBe(2);
    expect(await messageCount(a.recent.id)).toBe(2);
    // Three years: only the four-year-old broadcast goes; five (never saved, the default): nothing goes.
    expect(await messageCount(b.twoYears.id)).toBe(5);
    expect(await messageCount(b.fourYears.id)).toBe(0);
    expect(await messageCount(c.fourYears.id)).toBe(2);
    expect(await replyExists(replies.aOld)).toBe(false);
    expect(await replyExists(replies.aRecent)).toBe(true);
    expect(await replyExists(replies.bTwoYears)).toBe(true);
    expect(await replyExists(replies.bFourYears)).toBe(false);
    expect(await replyExists(replies.cFourYears)).toBe(true);

    // Totals stay: the counters (even after a recount), the Dashboard's hours, and what the rows said, by state.
    await refreshBroadcastCounts(t.db.pool, all);
    expect(await counters(all)).toEqual(countersBefore);
    expect([await dashboard(oneYear), await dashboard(threeYears)]).toEqual(dashboardBefore);
    const removed = await t.db.pool.query(
      `select broadcast_id::int, state, recipients, replied from broadcast_removed_outcomes
        where broadcast_id = $1 order by state`,
      [a.old.id],
    );
    expect(removed.rows).toEqual([
      { broadcast_id: a.old.id, state: 'delivered', recipients: 1, replied: 0 },
      { broadcast_id: a.old.id, state: 'failed', recipients: 1, replied: 0 },
      { broadcast_id: a.old.id, state: 'read', recipients: 2, replied: 1 },
      { broadcast_id: a.old.id, state: 'sent', recipients: 1, replied: 0 },
    ]);

    // The report keeps its figures; only the rows to list are gone.
    expect(await report(oneYear, a.old.id)).toEqual({ ...reportBefore, count: 0, listed: 0 });

    // A second run finds nothing more: the job is safe to repeat.
    expect(await removeExpiredData(t.db.pool, 2)).toEqual({ messages: 0, replies: 0 });
  });

  it('recounts a broadcast whose counters are stale before it removes the rows they count', async () => {
    const owner = await account('retention-stale@acme.test', 'Stale Shop');
    await saveAccountSettings(t.db.pool, owner.id, { retention_years: 1 });
    const old = await broadcast(owner, 2 * 365, ['delivered', 'delivered', 'delivered']);
    // A status that came late (decision 059: the writer marks, it does not recount).
    await t.db.pool.query(`update broadcast_messages set state = 'read' where id = $1`, [old.messageIds[0]]);
    await markCountsStale(t.db.pool, [old.id]);

    expect(await removeExpiredData(t.db.pool, 2)).toMatchObject({ messages: 3 });
    expect(await messageCount(old.id)).toBe(0);
    expect(await counters([old.id])).toEqual([
      {
        id: old.id,
        total_recipients: 3,
        accepted_count: 3,
        delivered_count: 3,
        read_count: 1,
        failed_count: 0,
      },
    ]);
    const { rows } = await t.db.pool.query('select counts_stale from broadcasts where id = $1', [old.id]);
    expect(rows[0]).toEqual({ counts_stale: false });
  });
});
