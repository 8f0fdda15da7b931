import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { spawnTestWorker } from '../../../../../test-support/processes';
import { signedInUser } from '../auth/auth-test-helpers';

// kill -9 the worker five times in the middle of a 5,000-recipient broadcast: nobody is messaged twice and
// every message ends in a final state.
let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let headers: Record<string, string>;
const RECIPIENTS = 5_000;

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

const accepted = async () =>
  Number(
    (
      await t.db.pool.query(
        "select count(*) as n from broadcast_messages where state in ('accepted', 'sent', 'delivered', 'read')",
      )
    ).rows[0].n,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
    // 5,000 users in a day: past the sandbox's default messaging limit (TIER_2K), as it would be at Meta.
    default_messaging_limit: 'TIER_10K',
  });
  owner = await signedInUser(t, 'crash@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  await sandbox(`/__sandbox/phone-numbers/${owner.business.phone_number_id}`, { mps: 1000 });
  await t.db.pool.query("update phone_numbers set throughput_level = 'HIGH'");
  await t.db.pool.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1628' || lpad(i::text, 7, '0')
       from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
    [RECIPIENTS, owner.business.waba_id],
  );
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'crash_test',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  const id = template.json().id;
  for (let i = 0; i < 100; i += 1) {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [id]);
    if (rows[0].status === 'APPROVED') break;
    await sleep(50);
  }
}, 60_000);

afterAll(() => t.close());

describe('a worker killed with SIGKILL five times mid-broadcast', () => {
  it('messages every recipient at most once, and every message ends final', async () => {
    const templateId = (await t.db.pool.query("select id::int from templates where name = 'crash_test'"))
      .rows[0].id;
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'Crash', template_id: templateId, recipients: { type: 'all', percentage: 100 } },
    });
    expect(created.json().total_recipients).toBe(RECIPIENTS);
    const broadcastId = created.json().id;

    for (let kill = 0; kill < 5; kill += 1) {
      const worker = spawnTestWorker(t);
      const before = await accepted();
      const deadline = Date.now() + 30_000;
      // Kill it while it is sending: once it has moved some messages since it started.
      while ((await accepted()) < before + 50 && Date.now() < deadline) await sleep(50);
      await sleep(100 + Math.random() * 300);
      worker.kill('SIGKILL');
      await worker.exited;
    }
    const survivor = spawnTestWorker(t);
    try {
      const deadline = Date.now() + 120_000;
      let status = '';
      while (Date.now() < deadline) {
        status = (await t.db.pool.query('select status from broadcasts where id = $1', [broadcastId])).rows[0]
          .status;
        if (status === 'completed') break;
        await sleep(250);
      }
      expect(status).toBe('completed');
    } finally {
      survivor.kill('SIGTERM');
      await survivor.exited;
    }
    await t.app.webhooks.idle();

    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
    )) as {
      total: number;
      unique_recipients: number;
      duplicate_recipients: unknown[];
    };
    expect(log.duplicate_recipients).toEqual([]);
    expect(log.total).toBe(log.unique_recipients);

    const states = (
      await t.db.pool.query<{ state: string; n: number }>(
        'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
        [broadcastId],
      )
    ).rows;
    const byState = Object.fromEntries(states.map((s) => [s.state, s.n]));
    expect(
      Object.keys(byState).every((state) =>
        ['accepted', 'sent', 'delivered', 'read', 'failed', 'unknown'].includes(state),
      ),
    ).toBe(true);
    const reached = RECIPIENTS - (byState.failed ?? 0) - (byState.unknown ?? 0);
    // Every message Meta accepted is known as such; the rest failed, or their outcome is unknown (no status came
    // within the outcome timeout), truthfully, instead of being resent.
    expect(reached).toBe(log.unique_recipients);
  }, 300_000);
});
