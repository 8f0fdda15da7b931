// Broadcast throughput on this machine: 100,000 contacts, the sandbox in its own process on loopback.
// Figures: send rate against a 1,000 mps and an 80 mps cap, 130429 answers, time to the first message,
// and status-webhook ingestion (statuses/s acknowledged, ack p99, time until applied), without and with the
// Dashboard's daily figures kept (at most 10 % slower with them).
import { mkdtemp, rm } from 'node:fs/promises';
import os, { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { migrate } from '../apps/server/src/db/migrate';
import { createPool } from '../apps/server/src/db/pool';
import { BroadcastEngine } from '../apps/server/src/features/broadcasts/sending/broadcast-engine';
import { MessageSender } from '../apps/server/src/features/broadcasts/sending/message-sender';
import { signBody } from '../apps/server/src/features/webhooks/signature';
import { SecretBox } from '../apps/server/src/security/secret-box';
import { createScratchDatabase } from '../test-support/database-server';
import { startSandboxProcess, stopProcess } from '../test-support/processes';
import { startApiProcess } from './api-process';
import { testConfig } from '../test-support/test-config';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
// MARKETING sends through Meta's Marketing Messages API (the sandbox's new businesses accept its terms); the
// contacts are +1 numbers, so the sandbox's US marketing pause is off for that run.
const CATEGORY = process.env.BENCH_CATEGORY === 'MARKETING' ? 'MARKETING' : 'UTILITY';

const database = await createScratchDatabase(`herald_bench_broadcast_${process.pid}`);
const url = database.url;
// Its own state folder, so a run never loads an earlier run's businesses (the sandbox keeps state on disk).
const sandboxDir = await mkdtemp(path.join(os.tmpdir(), 'herald-bench-sandbox-'));
const sandboxProcess = await startSandboxProcess(sandboxDir, {
  SANDBOX_REVIEW_DELAY_MS: '50',
  ...(CATEGORY === 'MARKETING' ? { SANDBOX_US_MARKETING_RULE: 'false' } : {}),
});
const sandboxUrl = sandboxProcess.url;
const sandbox = (p: string, body?: object) =>
  fetch(`${sandboxUrl}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

try {
  await migrate(url);
  const pool = createPool(url, 20);
  const config = testConfig({ GRAPH_API_BASE: sandboxUrl, WEB_DIST_DIR: '/nonexistent' });
  const app = await buildApp({ config, pool, logger: false });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', { webhook_url: `${address}/webhooks/whatsapp`, pair_rate_window_ms: 0 });

  // An account, its number at HIGH throughput, 100,000 contacts and an approved template.
  const business = (await sandbox('/__sandbox/wabas', { business_name: 'Bench Co' })) as Record<
    string,
    string
  >;
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/facebook/callback/',
    payload: { ...business, email: 'bench@herald.test', password: 'bench password', account_data: {} },
  });
  if (signup.statusCode !== 200) throw new Error(signup.body);
  const token = (
    await app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { username: 'bench@herald.test', password: 'bench password' },
    })
  ).json().accessToken;
  const headers = { authorization: `Bearer ${token}` };
  await pool.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1628' || lpad(i::text, 7, '0') from waba_accounts w, generate_series(1, $1) i`,
    [CONTACTS],
  );
  await pool.query('vacuum analyze contacts');
  const templateId = (
    await app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: {
        name: 'bench_hello',
        language: 'en_US',
        category: CATEGORY,
        components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
        dynamic_variables: { body_variable: { '1': 'name' } },
      },
    })
  ).json().id;
  while (
    (await pool.query('select status from templates where id = $1', [templateId])).rows[0].status !==
    'APPROVED'
  ) {
    await app.webhooks.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // An unlimited portfolio (the sandbox tells Herald by business_capability_update), so the messaging limit does
  // not stop a 100,000-recipient send; broadcast-limit.bench.ts measures what counting it costs.
  await sandbox(`/__sandbox/portfolios/${business.business_id}`, { tier: 'TIER_UNLIMITED' });
  while (
    (await pool.query("select 1 from messaging_portfolios where tier = 'TIER_UNLIMITED'")).rowCount === 0
  ) {
    await app.webhooks.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Sending is measured alone: no status webhooks compete for the CPU while the engine sends.
  await sandbox('/__sandbox/config', { webhook_url: null });

  const sender = new MessageSender(sandboxUrl, 'v21.0');
  const engine = new BroadcastEngine({ pool, sender, secrets: new SecretBox(config.ENCRYPTION_KEY!) });

  async function sendRun(level: 'HIGH' | 'STANDARD', mps: number, percentage: number) {
    await pool.query('update phone_numbers set throughput_level = $1', [level]);
    await sandbox(`/__sandbox/phone-numbers/${business.phone_number_id}`, { mps });
    const created = await app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: `bench ${mps}`, template_id: templateId, recipients: { type: 'all', percentage } },
    });
    const id = created.json().id;
    const ticking = setInterval(() => void engine.tick(), 200);
    await engine.tick();
    while (
      (await pool.query('select status from broadcasts where id = $1', [id])).rows[0].status !== 'completed'
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    clearInterval(ticking);
    await engine.idle();
    const { rows } = await pool.query(
      `select count(*)::int as sent,
              extract(epoch from (max(m.accepted_at) - min(m.accepted_at))) as seconds,
              extract(epoch from (min(m.accepted_at) - b.created_at)) as first_after,
              count(*) filter (where m.error_code = 130429)::int as rate_limited,
              count(*) filter (where m.state = 'failed')::int as failed
         from broadcast_messages m join broadcasts b on b.id = m.broadcast_id
        where m.broadcast_id = $1 group by b.created_at`,
      [id],
    );
    const r = rows[0];
    const rate = r.sent / Number(r.seconds);
    return {
      cap_mps: mps,
      messages: r.sent,
      seconds: Number(Number(r.seconds).toFixed(2)),
      rate_mps: Math.round(rate),
      share_of_cap: Number((rate / mps).toFixed(3)),
      first_message_after_create_s: Number(Number(r.first_after).toFixed(3)),
      answers_130429: r.rate_limited,
      failed: r.failed,
      broadcastId: id,
    };
  }

  const high = await sendRun('HIGH', 1000, 100);
  // Which endpoint the sends took (the sandbox's log names it per message).
  const endpoints = Object.fromEntries(
    await Promise.all(
      ['messages', 'marketing_messages'].map(async (endpoint) => [
        endpoint,
        ((await sandbox(`/__sandbox/messages?endpoint=${endpoint}&limit=1`)) as { total: number }).total,
      ]),
    ),
  );
  const standard = await sendRun('STANDARD', 80, 8);

  // Status ingestion: signed batches of 100 statuses (as Meta batches them). Measured twice in this run, on
  // the two halves of the 1,000 mps broadcast's messages: first without the Dashboard's daily figures (their
  // trigger disabled: ingestion as it was before them), then with them kept in the same transaction.
  const messages = (
    await pool.query<{ id: string; wamid: string }>(
      'select m.id::text, m.wamid from broadcast_messages m where m.broadcast_id = $1 order by m.id',
      [high.broadcastId],
    )
  ).rows;
  const half = Math.floor(messages.length / 2);
  const halves = [messages.slice(0, half), messages.slice(half)];
  /** Bodies of 100 statuses each (Meta batches statuses), one `status` for every message. */
  const bodiesFor = (subset: typeof messages, status: string) => {
    const bodies: string[] = [];
    for (let i = 0; i < subset.length; i += 100) {
      const statuses = subset.slice(i, i + 100).map((m) => ({
        id: m.wamid,
        status,
        timestamp: '1',
        recipient_id: '1',
        biz_opaque_callback_data: m.id,
      }));
      bodies.push(
        JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: business.waba_id,
              changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', statuses } }],
            },
          ],
        }),
      );
    }
    return bodies;
  };
  // Meta's webhooks reach the API from outside: the API runs in a process of its own here (as in production),
  // so the bench's HTTP client does not share its event loop. Same database, same app secret (testConfig).
  const apiProcess = await startApiProcess(url, sandboxUrl);
  const apiUrl = apiProcess.api;
  const post = async (body: string, latencies: number[]) => {
    const t0 = performance.now();
    const response = await fetch(`${apiUrl}/webhooks/whatsapp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signBody(config.META_APP_SECRET, body),
      },
      body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
    latencies.push(performance.now() - t0);
  };
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Number(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!.toFixed(1));
  };

  /** Paced then saturated ingestion of one subset's statuses: delivered, then read. */
  async function ingest(subset: typeof messages) {
    const first = subset[0]!.id;
    const last = subset[subset.length - 1]!.id;
    const countIn = async (state: string) =>
      (
        await pool.query(
          `select count(*)::int as n from broadcast_messages
            where waba_account_id = (select waba_account_id from broadcasts where id = $1)
              and broadcast_id = $1 and id between $2 and $3 and state = $4`,
          [high.broadcastId, first, last, state],
        )
      ).rows[0].n as number;
    /** Seconds from `from` until every message is in `state` (applied, not only acknowledged). */
    const appliedAfter = async (from: number, state: string) => {
      while ((await countIn(state)) < subset.length && performance.now() - from < 300_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return (performance.now() - from) / 1000;
    };

    // 1. Paced: 10,000 statuses/s (twice the 5,000), sent on a clock whatever the answers do, as Meta
    //    does; the ack latency of each request at that rate. Every message goes delivered.
    const PACED_PER_S = 10_000;
    const paced: number[] = [];
    const delivered = bodiesFor(subset, 'delivered');
    const pacedStart = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < delivered.length; i += 1) {
      const due = pacedStart + (i * 100 * 1000) / PACED_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(post(delivered[i]!, paced));
    }
    await Promise.all(inFlight);
    const pacedSeconds = (performance.now() - pacedStart) / 1000;
    const pacedApplied = await appliedAfter(pacedStart, 'delivered');

    // 2. Saturation: 20 requests in flight, each sent as soon as one is answered; every message goes read.
    const saturated: number[] = [];
    const read = bodiesFor(subset, 'read');
    let next = 0;
    const saturationStart = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < read.length) await post(read[next++]!, saturated);
      }),
    );
    const saturationSeconds = (performance.now() - saturationStart) / 1000;
    const saturationApplied = await appliedAfter(saturationStart, 'read');
    return {
      paced: {
        statuses: subset.length,
        offered_statuses_per_s: PACED_PER_S,
        acked_statuses_per_s: Math.round(subset.length / pacedSeconds),
        ack_p50_ms: quantile(paced, 0.5),
        ack_p99_ms: quantile(paced, 0.99),
        ack_max_ms: quantile(paced, 1),
        applied_statuses_per_s: Math.round(subset.length / pacedApplied),
      },
      saturated: {
        statuses: subset.length,
        requests_in_flight: 20,
        acked_statuses_per_s: Math.round(subset.length / saturationSeconds),
        ack_p50_ms: quantile(saturated, 0.5),
        ack_p99_ms: quantile(saturated, 0.99),
        applied_statuses_per_s: Math.round(subset.length / saturationApplied),
      },
    };
  }

  const DASHBOARD_TRIGGER = 'broadcast_messages_dashboard_update';
  await pool.query(`alter table broadcast_messages disable trigger ${DASHBOARD_TRIGGER}`);
  const withoutFigures = await ingest(halves[0]!);
  await pool.query(`alter table broadcast_messages enable trigger ${DASHBOARD_TRIGGER}`);
  const withFigures = await ingest(halves[1]!);
  apiProcess.child.kill('SIGTERM');
  /** Share of the rate without daily figures that is lost with them (goal ≤ 0.10). */
  const loss = (without: number, withThem: number) => Number((1 - withThem / without).toFixed(3));

  console.log(
    JSON.stringify({
      benchmark: 'broadcast',
      contacts: CONTACTS,
      template_category: CATEGORY,
      sent_through: endpoints,
      send_at_1000_mps: { ...high, broadcastId: undefined },
      send_at_80_mps: { ...standard, broadcastId: undefined },
      webhook_ingestion_without_daily_figures: withoutFigures,
      webhook_ingestion_with_daily_figures: withFigures,
      daily_figures_cost: {
        paced_applied: loss(
          withoutFigures.paced.applied_statuses_per_s,
          withFigures.paced.applied_statuses_per_s,
        ),
        saturated_acked: loss(
          withoutFigures.saturated.acked_statuses_per_s,
          withFigures.saturated.acked_statuses_per_s,
        ),
        saturated_applied: loss(
          withoutFigures.saturated.applied_statuses_per_s,
          withFigures.saturated.applied_statuses_per_s,
        ),
        goal_at_most: 0.1,
      },
      load_average: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
  await engine.stop();
  sender.close();
  await app.close();
  await pool.end();
} finally {
  await stopProcess(sandboxProcess);
  await rm(sandboxDir, { recursive: true, force: true });
  await database.drop();
}
