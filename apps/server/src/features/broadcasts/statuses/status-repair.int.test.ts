import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { startTestWorker } from '../../../../../../test-support/worker';
import { signedInUser } from '../../auth/auth-test-helpers';
import { HeraldMetrics } from '../../metrics/metrics-registry';
import { postMessagesWebhook } from '../../webhooks/webhook-test-helpers';
import { findAllRowsBehind, repairStatusPass, STATUS_REPAIR_QUEUE } from './status-repair';

let t: TestApp;
let wabaId: string;
let otherWabaId: string;
let accountId: number;
let broadcastId: number;

async function business(): Promise<{ wabaId: string; accountId: number; phoneId: number }> {
  const owner = await signedInUser(t, `repair-${randomBytes(3).toString('hex')}@acme.test`);
  const { rows } = await t.db.pool.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w
       join phone_numbers p on p.waba_account_id = w.id where w.waba_id = $1 limit 1`,
    [owner.business.waba_id],
  );
  return { wabaId: owner.business.waba_id, accountId: rows[0]!.account, phoneId: rows[0]!.phone };
}

/** A message row of the test's broadcast, as its sender left it. */
async function row(state: string, wamid: string | null): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts, wamid,
                                     accepted_at, delivered_at)
     values ($1, $2, '+4479111' || lpad((floor(random() * 99999))::text, 5, '0'), $3, 1, $4,
             case when $3 <> 'queued' then now() end, case when $3 = 'delivered' then now() end)
     returning id::int`,
    [accountId, broadcastId, state, wamid],
  );
  return rows[0]!.id;
}

function status(id: number, wamid: string, value: string, extra: Record<string, unknown> = {}) {
  return {
    id: wamid,
    status: value,
    timestamp: '1',
    recipient_id: '447911100000',
    biz_opaque_callback_data: String(id),
    ...extra,
  };
}

const messageRow = async (id: number) =>
  (
    await t.db.pool.query(
      'select state, wamid, accepted_at, delivered_at, read_at, failed_at from broadcast_messages where id = $1',
      [id],
    )
  ).rows[0];

const repairsCounted = async () => {
  const text = await new HeraldMetrics(t.db.pool).scrape();
  return Number(/^herald_status_repairs_total (\S+)$/m.exec(text)?.[1]);
};

beforeAll(async () => {
  t = await startTestApp();
  const first = await business();
  ({ wabaId, accountId } = first);
  otherWabaId = (await business()).wabaId;
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, total_recipients, started_at)
     values ($1, $2, 'hello', 'en_US', 'repair', '{"type":"all","percentage":100}', now(), 'sending', 5, now())
     returning id::int`,
    [accountId, first.phoneId],
  );
  broadcastId = rows[0]!.id;
});

afterAll(async () => {
  // This file makes repairs on purpose; the close's check that no status needed one is for every other test.
  await t?.db.pool.query('delete from status_repairs');
  await t?.close();
});

describe('the status repair sweep', () => {
  it('finds a row moved back below its delivered status, moves it forward once, logs and counts it', async () => {
    const lost = await row('accepted', 'wamid.repair.lost');
    await postMessagesWebhook(t, wabaId, { statuses: [status(lost, 'wamid.repair.lost', 'delivered')] });
    const applied = await messageRow(lost);
    expect(applied.state).toBe('delivered');
    // As the old race did: the row written back below the status Herald had processed.
    await t.db.pool.query(
      `update broadcast_messages set state = 'accepted', delivered_at = null where id = $1`,
      [lost],
    );

    const behind = await findAllRowsBehind(t.db.pool);
    expect(behind.map((b) => ({ id: b.id, state: b.state, status: b.status.status }))).toEqual([
      { id: lost, state: 'accepted', status: 'delivered' },
    ]);

    const before = await repairsCounted();
    const warnings: string[] = [];
    const pass = await repairStatusPass(t.db.pool, 0, { warn: (message) => warnings.push(message) });
    expect(pass.repaired.map((r) => r.id)).toEqual([lost]);
    const repaired = await messageRow(lost);
    expect(repaired).toMatchObject({
      state: 'delivered',
      wamid: 'wamid.repair.lost',
      read_at: null,
      failed_at: null,
    });
    expect(repaired.delivered_at).toBeInstanceOf(Date);
    expect(repaired.accepted_at).toEqual(applied.accepted_at);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('wamid.repair.lost');
    expect(await repairsCounted()).toBe(before + 1);
    expect(await findAllRowsBehind(t.db.pool)).toEqual([]);
    // Kept in the audit, which outlives the worker's counter.
    const audit = await t.db.pool.query(
      'select broadcast_message_id::int as id, wamid, state_before, status from status_repairs',
    );
    expect(audit.rows).toEqual([
      { id: lost, wamid: 'wamid.repair.lost', state_before: 'accepted', status: 'delivered' },
    ]);

    // The next pass starts after the events examined; one from the start again finds nothing to do either.
    const next = await repairStatusPass(t.db.pool, pass.lastEventId, {
      warn: (message) => warnings.push(message),
    });
    expect(next).toMatchObject({ events: 0, repaired: [] });
    const again = await repairStatusPass(t.db.pool, 0, { warn: (message) => warnings.push(message) });
    expect(again.repaired).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(await repairsCounted()).toBe(before + 1);
  });

  it('leaves alone the statuses the webhook batch must not apply', async () => {
    const retried = await row('sent', 'wamid.repair.second-attempt');
    const delivered = await row('delivered', 'wamid.repair.delivered');
    const elsewhere = await row('accepted', 'wamid.repair.elsewhere');
    const read = await row('read', 'wamid.repair.read');
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        // An earlier attempt's status: another wamid than the row's.
        status(retried, 'wamid.repair.first-attempt', 'delivered'),
        // A failure after delivery, and anything after read.
        status(delivered, 'wamid.repair.delivered', 'failed', {
          errors: [{ code: 131000, title: 'Something' }],
        }),
        status(read, 'wamid.repair.read', 'delivered'),
      ],
    });
    // The row of another account, named from this account's WABA: by row id and by wamid.
    await postMessagesWebhook(t, otherWabaId, {
      statuses: [status(elsewhere, 'wamid.repair.elsewhere', 'read')],
    });
    // Not a status Herald knows.
    await postMessagesWebhook(t, wabaId, {
      statuses: [status(elsewhere, 'wamid.repair.elsewhere', 'deleted')],
    });
    expect((await messageRow(retried)).state).toBe('sent');
    expect((await messageRow(delivered)).state).toBe('delivered');
    expect((await messageRow(elsewhere)).state).toBe('accepted');
    expect(await findAllRowsBehind(t.db.pool)).toEqual([]);
    const pass = await repairStatusPass(t.db.pool, 0, { warn: () => undefined });
    expect(pass.repaired).toEqual([]);
  });

  it('runs in the worker every minute, keeping its place in its schedule', async () => {
    const errors: string[] = [];
    const worker = await startTestWorker({
      app: t,
      pool: t.db.pool,
      onError: (e) => errors.push(e.message),
    });
    try {
      const schedule = async () =>
        (await worker.boss.getSchedules()).find((s) => s.name === STATUS_REPAIR_QUEUE);
      expect((await schedule())?.cron).toBe('* * * * *');
      const lost = await row('sent', 'wamid.repair.worker');
      await postMessagesWebhook(t, wabaId, { statuses: [status(lost, 'wamid.repair.worker', 'read')] });
      await t.db.pool.query(
        `update broadcast_messages set state = 'sent', read_at = null, delivered_at = null where id = $1`,
        [lost],
      );
      await worker.boss.send(STATUS_REPAIR_QUEUE, { afterEventId: 0 });
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && (await messageRow(lost)).state !== 'read')
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await messageRow(lost)).toMatchObject({ state: 'read' });
      const place = async () =>
        ((await schedule())?.data as { afterEventId?: number } | undefined)?.afterEventId;
      while (Date.now() < deadline && (await place()) === undefined)
        await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await t.db.pool.query<{ id: number }>('select max(id)::int as id from webhook_events');
      expect(await place()).toBe(rows[0]!.id);
      expect(errors.filter((e) => e.includes('wamid.repair.worker'))).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });
});
