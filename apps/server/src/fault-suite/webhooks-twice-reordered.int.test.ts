import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultScene, faultScene, sleep, waitFor } from './fault-setup';
import { freshBroadcastRow } from '../features/broadcasts/broadcast-test-helpers';

// Every status webhook of a whole broadcast delivered twice and out of order (the sandbox's
// duplicate_rate 1 and reorder, as Meta may). The broadcast's counters and the Dashboard's hourly figures must
// equal a recount from the message rows, as must each contact's kept activity, and the message rows must match
// what the sandbox did.
const RECIPIENTS = 2_000;
let scene: FaultScene;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  scene = await faultScene({
    email: 'twice@acme.test',
    recipients: RECIPIENTS,
    mps: 1000,
    sandboxConfig: { duplicate_rate: 1, reorder: true, delivered_rate: 1, read_rate: 0.6 },
  });
  stopWorker = (await scene.startWorker()).stop;
}, 60_000);

afterAll(async () => {
  await stopWorker?.();
  await scene?.t.close();
});

describe('status webhooks delivered twice and out of order throughout a broadcast', () => {
  it('keeps the broadcast counters and the Dashboard hours equal to a recount of the message rows', async () => {
    const { t } = scene;
    const broadcastId = await scene.broadcastToAll('Twice');
    await waitFor(
      'the broadcast to complete',
      async () => ((await scene.status(broadcastId)) === 'completed' ? true : undefined),
      60_000,
    );
    // Every status webhook the sandbox planned has been posted and processed.
    await waitFor('the sandbox to post every status', async () => {
      const state = await scene.sandbox('/__sandbox/state');
      return state.messaging.pending_statuses === 0 ? true : undefined;
    });
    await sleep(300);
    await t.app.webhooks.idle();

    const log = await scene.sentLog();
    expect(log.duplicate_recipients).toEqual([]);
    expect(log.total).toBe(RECIPIENTS);

    const recount = (
      await t.db.pool.query(
        `select count(*) filter (where state in ('accepted', 'sent', 'delivered', 'read'))::int as accepted,
                count(*) filter (where state in ('delivered', 'read'))::int as delivered,
                count(*) filter (where state = 'read')::int as read,
                count(*) filter (where state = 'failed')::int as failed,
                count(*) filter (where accepted_at is not null)::int as sent_at,
                count(*) filter (where delivered_at is not null)::int as delivered_at,
                count(*) filter (where read_at is not null)::int as read_at
           from broadcast_messages where broadcast_id = $1`,
        [broadcastId],
      )
    ).rows[0];
    // The sandbox delivers every message it accepted (delivered_rate 1): whatever order the statuses came in,
    // none is left at 'sent' and nothing counts twice.
    expect(recount.accepted).toBe(RECIPIENTS);
    expect(recount.delivered).toBe(RECIPIENTS);
    expect(recount.read).toBeGreaterThan(RECIPIENTS * 0.5);
    expect(recount.read).toBeLessThan(RECIPIENTS * 0.7);

    const counters = await freshBroadcastRow(
      t.db.pool,
      broadcastId,
      'accepted_count, delivered_count, read_count, failed_count',
    );
    expect(counters).toEqual({
      accepted_count: recount.accepted,
      delivered_count: recount.delivered,
      read_count: recount.read,
      failed_count: recount.failed,
    });

    const hours = (
      await t.db.pool.query(
        `select coalesce(sum(sent), 0)::int as sent, coalesce(sum(delivered), 0)::int as delivered,
                coalesce(sum(read), 0)::int as read, coalesce(sum(failed), 0)::int as failed
           from dashboard_hours h join waba_accounts w on w.id = h.waba_account_id where w.waba_id = $1`,
        [scene.wabaId],
      )
    ).rows[0];
    expect(hours).toEqual({
      sent: recount.sent_at,
      delivered: recount.delivered_at,
      read: recount.read_at,
      failed: recount.failed,
    });

    // Each contact's kept activity (what segments read) equals the latest times of its message rows.
    const activity = (
      await t.db.pool.query(
        `with w as (select id from waba_accounts where waba_id = $1),
              recount as (
                select m.contact_id, max(m.accepted_at) as received_at,
                       max(coalesce(m.delivered_at, m.read_at)) as delivered_at, max(m.read_at) as read_at
                  from broadcast_messages m, w where m.waba_account_id = w.id group by 1)
         select count(*)::int as contacts,
                count(*) filter (where (a.received_at, a.delivered_at, a.read_at)
                                 is distinct from (r.received_at, r.delivered_at, r.read_at))::int as different
           from recount r full join (select a.* from contact_activity a, w where a.waba_account_id = w.id) a
             on a.contact_id = r.contact_id`,
        [scene.wabaId],
      )
    ).rows[0];
    expect(activity).toEqual({ contacts: RECIPIENTS, different: 0 });

    // What the user sees: the history row's percentages are of the same exact figures.
    const list = await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers: scene.headers });
    const row = list.json().results.find((r: { id: number }) => r.id === broadcastId);
    expect(row.delivered_percentage).toBe(100);
    expect(row.read_percentage).toBe(Math.round((recount.read / RECIPIENTS) * 1000) / 10);
    const posts = (await scene.sandbox('/__sandbox/state')).messaging;
    console.log(
      `webhooks twice and reordered: ${RECIPIENTS} recipients, ${posts.statuses_posted} statuses posted in ${posts.posts} posts; counters ${JSON.stringify(counters)}; dashboard ${JSON.stringify(hours)}`,
    );
  }, 120_000);
});
