// The tracked-link redirect (GET /l/{token}, decision 091) under a burst of clicks: an open loop at
// BENCH_CLICKS_PER_SECOND (2,000) for BENCH_SECONDS (10) against the API in its own process, each request a
// recipient's link of a 100,000-recipient broadcast; a tenth of them repeat a recipient already clicked (a
// second tap), after WARMUP_SECONDS (2) of the same on other recipients. Goal: p99 ≤ 20 ms with every click
// stored, none lost and none twice: after the run the clicked message rows equal the distinct recipients
// clicked and every click was answered 302. `per_second_p99_ms` shows whether a slow tail is one stall or
// the whole run.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import http from 'node:http';
import { migrate } from '../apps/server/src/db/migrate';
import { linkToken } from '../apps/server/src/security/link-token';
import { SecretBox } from '../apps/server/src/security/secret-box';
import { signUpBenchBusiness, startApiProcess } from './api-process';
import { createScratchDatabase } from '../test-support/database-server';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BENCH_CLICKS_PER_SECOND ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const GOAL_P99_MS = 20;

const database = await createScratchDatabase(`herald_bench_link_redirect_${process.pid}`);
const db = new pg.Client({ connectionString: database.url });
let child: ChildProcess | undefined;
const key = randomBytes(32).toString('base64');
process.env.BENCH_ENCRYPTION_KEY = key;
const box = new SecretBox(key);

try {
  await migrate(database.url);
  await db.connect();
  const started = await startApiProcess(database.url);
  child = started.child;
  const { business } = await signUpBenchBusiness(started);
  const { rows } = await db.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1`,
    [business.waba_id],
  );
  const { account, phone } = rows[0]!;
  const broadcast = await db.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, started_at, completed_at, status, total_recipients, link_destination,
                             link_button_index)
     values ($1, $2, 'bench', 'en_US', 'Bench clicks', '{"type":"all","percentage":100}', now(), now(), now(),
             'completed', $3, 'https://shop.example.com/sale', 0) returning id::int`,
    [account, phone, RECIPIENTS],
  );
  const id = broadcast.rows[0]!.id;
  const messages = await db.query<{ id: number }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, wamid, requested_at,
                                     accepted_at, delivered_at)
     select $2, $1, '+3361' || lpad(i::text, 7, '0'), 'delivered', 'wamid.bench.' || i, now(), now(), now()
       from generate_series(1, $3) i
     returning id::int`,
    [id, account, RECIPIENTS],
  );
  await db.query('analyze');
  const ids = messages.rows.map((r) => r.id);

  // The schedule: RATE × SECONDS clicks; every tenth repeats an earlier recipient. Before it, WARMUP_SECONDS at
  // the same rate on other recipients (the upper half) and not measured: a server answering clicks has been
  // running, and its first second (V8 compiling, sockets opening) says nothing about how it answers a burst.
  const total = RATE * SECONDS;
  const targets: number[] = [];
  for (let i = 0; i < total; i += 1) {
    targets.push(i % 10 === 9 && i > 0 ? targets[Math.floor(i / 2)]! : ids[i % ids.length]!);
  }
  const warmupTargets = Array.from(
    { length: RATE * WARMUP_SECONDS },
    (_, i) => ids[ids.length - 1 - (i % Math.floor(ids.length / 2))]!,
  );
  // Tokens are signed beforehand so the load generator's own work stays out of the timed loop.
  const pathOf = (messageId: number, i: number) => `/l/${linkToken(box, account, messageId)}?click_id=c${i}`;
  const warmupPaths = warmupTargets.map((messageId, i) => pathOf(messageId, total + i));
  const paths = targets.map(pathOf);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const origin = new URL(started.api);
  /** One GET on a kept-alive connection; answers its status once the body is read. */
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const sent = http.request(
        {
          host: origin.hostname,
          port: origin.port,
          path,
          agent,
          headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' },
        },
        (answer) => {
          answer.resume();
          answer.on('end', () => resolve(answer.statusCode ?? 0));
        },
      );
      sent.on('error', reject);
      sent.end();
    });
  /** Open loop: each click leaves at its planned time, whether or not earlier ones have been answered. */
  const burst = async (planned: string[], answered: (status: number, ms: number, at: number) => void) => {
    const begin = performance.now();
    const inFlight: Array<Promise<void>> = [];
    for (let i = 0; i < planned.length; i += 1) {
      const wait = begin + (i * 1000) / RATE - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      inFlight.push(
        (async () => {
          const t0 = performance.now();
          const status = await get(planned[i]!);
          answered(status, performance.now() - t0, (t0 - begin) / 1000);
        })(),
      );
    }
    await Promise.all(inFlight);
    return (performance.now() - begin) / 1000;
  };
  let warmupAnswered = 0;
  await burst(warmupPaths, (status) => {
    if (status === 302) warmupAnswered += 1;
  });
  const latencies: number[] = [];
  const perSecond: number[][] = [];
  const statuses = new Map<number, number>();
  const seconds = await burst(paths, (status, ms, at) => {
    latencies.push(ms);
    (perSecond[Math.floor(at)] ??= []).push(ms);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  agent.destroy();

  const stored = await db.query<{ clicked: number; with_click_id: number }>(
    `select count(*)::int as clicked, count(click_id)::int as with_click_id from broadcast_messages
      where waba_account_id = $1 and broadcast_id = $2 and clicked_at is not null`,
    [account, id],
  );
  const distinct = new Set(targets).size;
  const warmupDistinct = new Set(warmupTargets).size;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)]!.toFixed(2));
  const p99 = at(0.99);
  const lossless =
    stored.rows[0]!.clicked === distinct + warmupDistinct &&
    statuses.get(302) === total &&
    warmupAnswered === warmupTargets.length;
  console.log(
    JSON.stringify({
      benchmark: 'link-redirect',
      database: database.source,
      recipients: RECIPIENTS,
      planned_clicks_per_second: RATE,
      clicks: latencies.length,
      achieved_clicks_per_second: Math.round(latencies.length / seconds),
      statuses: Object.fromEntries(statuses),
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      p99_ms: p99,
      max_ms: Number(latencies[latencies.length - 1]!.toFixed(2)),
      per_second_p99_ms: perSecond.map((second) => {
        second.sort((a, b) => a - b);
        return Math.round(second[Math.ceil(0.99 * second.length) - 1]!);
      }),
      warmup_seconds: WARMUP_SECONDS,
      distinct_recipients_clicked: distinct + warmupDistinct,
      clicked_rows_stored: stored.rows[0]!.clicked,
      none_lost_none_twice: lossless,
      goal_p99_ms: GOAL_P99_MS,
      meets_goal: p99 <= GOAL_P99_MS && lossless,
      load_average: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  child?.kill('SIGTERM');
  await db.end().catch(() => undefined);
  await database.drop();
}
