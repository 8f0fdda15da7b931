import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultScene, faultScene, sleep, waitFor } from './fault-setup';

// The Cloud API failing every send (the sandbox's error_rate_5xx 1: HTTP 500, code 131000,
// nothing accepted) for 10 s in the middle of a broadcast; bench/faults.bench.ts holds it for 60 s. The worker
// retries with a growing back-off instead of hammering Meta or giving up, the broadcast completes once the API
// is back, nobody is messaged twice, and meanwhile the history says why (decision 055) and the report lists who
// waits.
const RECIPIENTS = 1_000;
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 10_000);
let scene: FaultScene;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  scene = await faultScene({ email: 'outage@acme.test', recipients: RECIPIENTS, mps: 100 });
  stopWorker = (await scene.startWorker()).stop;
}, 60_000);

afterAll(async () => {
  await stopWorker?.();
  await scene?.t.close();
});

describe('the Cloud API failing every send for a while mid-broadcast', () => {
  it(
    'backs off, then completes with nobody messaged twice; the history and the report say why meanwhile',
    async () => {
      const { t } = scene;
      const broadcastId = await scene.broadcastToAll('Outage');
      await waitFor('the broadcast to be under way', async () =>
        (await scene.sentLog()).total >= 200 ? true : undefined,
      );
      await scene.sandbox('/__sandbox/faults', { error_rate_5xx: 1 });
      const downAt = Date.now();
      const sentAtOutage = (await scene.sentLog()).total;

      await sleep(OUTAGE_MS / 2);
      // What a user sees meanwhile.
      const historyRow = async (tz: string) => {
        const list = await t.app.inject({
          method: 'GET',
          url: `/broadcast/create/?tz=${encodeURIComponent(tz)}`,
          headers: scene.headers,
        });
        return list.json().results.find((r: { id: number }) => r.id === broadcastId);
      };
      const row = await historyRow('UTC');
      const rowInTokyo = await historyRow('Asia/Tokyo');
      const since = (
        await t.db.pool.query<{ since: Date | null }>(
          'select unanswered_since as since from broadcasts where id = $1',
          [broadcastId],
        )
      ).rows[0]!.since;
      const report = await t.app.inject({
        method: 'GET',
        url: `/broadcast/${broadcastId}/recipients/?outcome=pending`,
        headers: scene.headers,
      });
      expect(report.statusCode, report.body).toBe(200);
      const attempts = (
        await t.db.pool.query(
          `select max(attempts)::int as max, count(*) filter (where error_code = 131000)::int as erred
           from broadcast_messages where broadcast_id = $1 and state = 'queued'`,
          [broadcastId],
        )
      ).rows[0];
      await sleep(OUTAGE_MS / 2);
      await scene.sandbox('/__sandbox/faults', { error_rate_5xx: 0 });
      const upAt = Date.now();

      // The history row: still sending, nothing failed because of the outage, and the reason says what is
      // happening since when, in the caller's time zone.
      expect(row.status).toBe('sending');
      expect(row.failed_percentage).toBe(0);
      expect(since).not.toBeNull();
      expect(since!.getTime()).toBeGreaterThanOrEqual(downAt - 1_000);
      const clock = (tz: string) =>
        since!.toLocaleTimeString('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit' });
      expect(row.status_reason).toBe(
        `Retrying: WhatsApp's servers are not answering (since ${clock('UTC')})`,
      );
      expect(rowInTokyo.status_reason).toBe(
        `Retrying: WhatsApp's servers are not answering (since ${clock('Asia/Tokyo')})`,
      );
      // The report: the recipients waiting carry Meta's error as the reason they are not sent yet.
      const pending = report.json();
      expect(pending.outcomes.pending).toBeGreaterThan(0);
      expect(pending.results.some((r: { error_code: number | null }) => r.error_code === 131000)).toBe(true);
      // Back-off: in the first half of the outage a message was tried a handful of times, not hundreds.
      expect(attempts.erred).toBeGreaterThan(0);
      if (OUTAGE_MS <= 10_000) expect(attempts.max).toBeLessThanOrEqual(6);

      // Cleared when sending resumes: the first batch WhatsApp answers.
      await waitFor('the reason to clear once WhatsApp answers', async () =>
        (await historyRow('UTC')).status_reason === null ? true : undefined,
      );
      await waitFor(
        'the broadcast to complete',
        async () => ((await scene.status(broadcastId)) === 'completed' ? true : undefined),
        60_000,
      );
      const completedAt = Date.now();
      await t.app.webhooks.idle();
      const log = await scene.sentLog();
      expect(log.duplicate_recipients).toEqual([]);
      const cleared = await t.db.pool.query('select unanswered_since from broadcasts where id = $1', [
        broadcastId,
      ]);
      expect(cleared.rows[0].unanswered_since).toBeNull();
      expect(log.total).toBe(log.unique_recipients);
      const states = await scene.statesOf(broadcastId);
      const reached = ['accepted', 'sent', 'delivered', 'read'].reduce((sum, s) => sum + (states[s] ?? 0), 0);
      console.log(
        `Cloud API outage ${((upAt - downAt) / 1000).toFixed(1)} s after ${sentAtOutage} of ${RECIPIENTS} sent: ` +
          `history row meanwhile ${JSON.stringify({ status: row.status, status_reason: row.status_reason, waiting_until: row.waiting_until, handed: row.handed_percentage })}; ` +
          `report pending ${pending.outcomes.pending}, first reason ${JSON.stringify(pending.results[0]?.error_title)}; ` +
          `max tries at mid-outage ${attempts.max}; completed ${((completedAt - upAt) / 1000).toFixed(1)} s after it was back; ${JSON.stringify(states)}`,
      );
      // The outage cost no recipient: every one was sent once the API came back. A message gives up after 8
      // tries (send-result.ts: about 30-60 s of back-off), so a longer outage (the bench's 60 s) fails those
      // tried throughout it: this assertion fails there, the line above says how many.
      expect(reached).toBe(RECIPIENTS);
    },
    OUTAGE_MS + 120_000,
  );
});
