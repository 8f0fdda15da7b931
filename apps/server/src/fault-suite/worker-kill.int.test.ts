import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_TAKEOVER, spawnTestWorker } from '../../../../test-support/worker';
import { type FaultScene, faultScene, sleep, waitFor } from './fault-setup';
import { freshBroadcastRow } from '../features/broadcasts/broadcast-test-helpers';

// `herald work` killed with SIGKILL 20 times in the middle of one broadcast, restarted after each kill.
// worker-crash.int.test.ts kills it 5 times in 5,000 recipients; this one makes 20 kills in 12,000 recipients
// to stay within the suite's budget, and bench/faults.bench.ts runs this same file with 20,000
// (FAULT_RECIPIENTS, FAULT_KILLS). Nobody may be messaged twice (the sandbox's log), every recipient must end in
// a final state (MESSAGE_OUTCOME_TIMEOUT_SECONDS 5: an unconfirmed send ends 'unknown'), and nobody ends
// 'unknown' whose request never reached the sandbox.
const RECIPIENTS = Number(process.env.FAULT_RECIPIENTS ?? 12_000);
const KILLS = Number(process.env.FAULT_KILLS ?? 20);
// Slow enough that the 20 kills all land before the last recipient is sent. Herald paces the number at its
// HIGH level's 1,000 mps: sends above the sandbox's rate answer 130429 and are retried.
const MPS = Number(process.env.FAULT_MPS ?? 300);
const FINAL = ['delivered', 'read', 'failed', 'unknown', 'limited', 'not_on_whatsapp'];
let scene: FaultScene;

beforeAll(async () => {
  scene = await faultScene({
    email: 'kill@acme.test',
    recipients: RECIPIENTS,
    mps: MPS,
    sandboxConfig: { default_messaging_limit: 'TIER_100K' },
  });
}, 120_000);

afterAll(() => scene?.t.close());

const handed = async () =>
  Number(
    (
      await scene.t.db.pool.query(
        "select count(*) as n from broadcast_messages where state not in ('queued', 'sending')",
      )
    ).rows[0].n,
  );

describe(`a worker killed with SIGKILL ${KILLS} times mid-broadcast`, () => {
  it('messages every recipient at most once, and every recipient ends in a final state', async () => {
    const { t } = scene;
    const startedAt = Date.now();
    const broadcastId = await scene.broadcastToAll('Killed');
    let kills = 0;
    for (; kills < KILLS; kills += 1) {
      const before = await handed();
      if (before >= RECIPIENTS) break;
      const worker = spawnTestWorker({ app: t, ...QUICK_TAKEOVER });
      const deadline = Date.now() + 30_000;
      // Kill it while it sends: once it has moved some messages since it started, at a random moment after.
      while ((await handed()) < Math.min(RECIPIENTS, before + 50) && Date.now() < deadline) await sleep(25);
      await sleep(50 + Math.random() * 250);
      worker.kill('SIGKILL');
      await worker.exited;
    }
    const killedFor = Date.now() - startedAt;
    const survivor = spawnTestWorker({ app: t, ...QUICK_TAKEOVER });
    try {
      await waitFor(
        'the broadcast to complete',
        async () => ((await scene.status(broadcastId)) === 'completed' ? true : undefined),
        120_000,
      );
      // Statuses still to come, and the outcome timeout of sends whose answer the kill lost.
      await waitFor(
        'every recipient to end final',
        async () => {
          const states = await scene.statesOf(broadcastId);
          return Object.keys(states).every((state) => FINAL.includes(state)) ? states : undefined;
        },
        60_000,
      );
    } finally {
      survivor.kill('SIGTERM');
      await survivor.exited;
    }
    await t.app.webhooks.idle();

    const log = await scene.sentLog();
    expect(log.duplicate_recipients).toEqual([]);
    expect(log.total).toBe(log.unique_recipients);
    const states = await scene.statesOf(broadcastId);
    expect(Object.keys(states).filter((state) => !FINAL.includes(state))).toEqual([]);
    expect(Object.values(states).reduce((sum, n) => sum + n, 0)).toBe(RECIPIENTS);
    // Each recipient Meta accepted is known as reached, or as not on WhatsApp (the sandbox, like Meta, accepts
    // those and fails them by status), or is honestly unknown; none resent.
    const reached = (states.delivered ?? 0) + (states.read ?? 0);
    const accepted = reached + (states.not_on_whatsapp ?? 0);
    const neverRequested = await scene.unknownNeverRequested(broadcastId);
    console.log(
      `worker SIGKILL x${kills} in ${RECIPIENTS} recipients: kills over ${(killedFor / 1000).toFixed(1)} s, done ${(
        (Date.now() - startedAt) /
        1000
      ).toFixed(
        1,
      )} s; sandbox ${log.total} sent to ${log.unique_recipients}, ${log.duplicate_recipients.length} duplicates; ${JSON.stringify(states)}; ${neverRequested.length} unknown not read by the sandbox`,
    );
    expect(reached).toBeLessThanOrEqual(log.unique_recipients);
    expect(accepted + (states.unknown ?? 0)).toBeGreaterThanOrEqual(log.unique_recipients);
    expect(kills).toBe(KILLS);
    // A killed worker's claimed rows that it never requested go back to the queue and are sent once later: a
    // row's mark commits only after its request is written, in the same call (decision 079), so a kill before
    // the write rolls the mark back. A recipient left 'unknown' had its request written (the sandbox logged it;
    // the answer was lost with the worker).
    expect(neverRequested).toEqual([]);
    // The history's stored counts and the report count exactly what the rows say.
    const stored = await freshBroadcastRow(
      t.db.pool,
      broadcastId,
      'delivered_count, read_count, failed_count, unknown_count, total_recipients',
    );
    expect(stored).toEqual({
      delivered_count: reached,
      read_count: states.read ?? 0,
      failed_count: states.failed ?? 0,
      unknown_count: states.unknown ?? 0,
      total_recipients: RECIPIENTS,
    });
    const report = await t.app.inject({
      method: 'GET',
      url: `/broadcast/${broadcastId}/recipients/`,
      headers: scene.headers,
    });
    expect(report.statusCode, report.body).toBe(200);
    const outcomes = report.json().outcomes as Record<string, number>;
    expect(outcomes.unknown).toBe(states.unknown ?? 0);
    expect(outcomes.delivered! + outcomes.read!).toBe(reached);
    expect(Object.values(outcomes).reduce((sum, n) => sum + n, 0)).toBe(RECIPIENTS);
  }, 300_000);
});
