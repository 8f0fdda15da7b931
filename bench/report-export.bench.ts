// A delivery report's Export (GET /broadcast/{id}/recipients/export.csv) of 100,000 recipients,
// streamed from Postgres by COPY. Goals: the download takes ≤ 3 s and the API's memory stays flat. The API runs in
// its own process (api-server.ts) so its resident memory is its own: read from /proc before, at its peak (VmHWM,
// reset just before the download) and after. The download is read chunk by chunk and counted, never kept.
// Sizes: BENCH_RECIPIENTS (default 100,000); BENCH_RUNS downloads (default 3; the figures are each run's).
import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { migrate } from '../apps/server/src/db/migrate';
import { signUpBenchBusiness, startApiProcess } from './api-process';
import { createScratchDatabase } from '../test-support/database-server';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_SECONDS = 3;

const database = await createScratchDatabase(`herald_bench_report_export_${process.pid}`);
const url = database.url;
const db = new pg.Client({ connectionString: url });
let child: ChildProcess | undefined;

const mib = (kb: number) => Math.round((kb / 1024) * 10) / 10;

/** VmHWM (peak resident set) and VmRSS of a process, in kB. */
async function memory(pid: number): Promise<{ hwm: number; rss: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { hwm: field('VmHWM'), rss: field('VmRSS') };
}

/** Resets VmHWM to the current RSS, so the next reading is the peak of the download alone. */
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);

try {
  await migrate(url);
  await db.connect();
  const started = await startApiProcess(url);
  child = started.child;
  const { api, pid } = started;
  const { business, headers } = await signUpBenchBusiness(started);
  const { rows } = await db.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1`,
    [business.waba_id],
  );
  const { account, phone } = rows[0]!;

  // RECIPIENTS contacts and one completed broadcast to all of them, written by SQL in final states: 60 % read,
  // 30 % delivered, 5 % failed with Meta's code and title, the rest sent; names with commas and quotes sometimes.
  await db.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select $1, case when i % 50 = 0 then 'Doe, "Jo" ' || i else 'Contact ' || i end, '+3361' || lpad(i::text, 7, '0')
       from generate_series(1, $2) i`,
    [account, RECIPIENTS],
  );
  const broadcast = await db.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, started_at, completed_at, status, total_recipients)
     values ($1, $2, 'bench', 'en_US', 'Bench export', '{"type":"all","percentage":100}', now(), now(), now(),
             'completed', $3) returning id::int`,
    [account, phone, RECIPIENTS],
  );
  const id = broadcast.rows[0]!.id;
  await db.query(
    `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state, wamid,
                                     accepted_at, delivered_at, read_at, failed_at, error_code, error_title)
     select $2, $1, c.id, c.whatsapp_number, s.state, 'wamid.bench.' || c.id, now(),
            case when s.state in ('delivered', 'read') then now() end, case when s.state = 'read' then now() end,
            case when s.state = 'failed' then now() end, case when s.state = 'failed' then 131026 end,
            case when s.state = 'failed' then 'Message undeliverable' end
       from contacts c,
            lateral (select case when c.id % 20 = 0 then 'failed' when c.id % 10 < 6 then 'read'
                                 when c.id % 10 < 9 then 'delivered' else 'sent' end as state) s
      where c.waba_account_id = $2`,
    [id, account],
  );
  await db.query('analyze');

  const runs = [];
  for (let run = 0; run < RUNS; run += 1) {
    // Let the previous run's garbage go before reading the baseline.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await memory(pid);
    await resetPeak(pid);
    const started = performance.now();
    const response = await fetch(`${api}/broadcast/${id}/recipients/export.csv`, { headers });
    if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body!) {
      const part = chunk as Uint8Array;
      bytes += part.byteLength;
      for (const byte of part) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = await memory(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await memory(pid);
    if (lines !== RECIPIENTS + 1) throw new Error(`export had ${lines} lines, expected ${RECIPIENTS + 1}`);
    runs.push({
      seconds: Number(seconds.toFixed(2)),
      mb: Number((bytes / 1e6).toFixed(1)),
      rows: lines - 1,
      server_rss_before_mib: mib(before.rss),
      server_rss_peak_mib: mib(peak.hwm),
      server_rss_after_mib: mib(after.rss),
      peak_over_before_mib: mib(peak.hwm - before.rss),
    });
  }
  const worst = Math.max(...runs.map((r) => r.seconds));
  console.log(
    JSON.stringify({
      benchmark: 'report-export',
      recipients: RECIPIENTS,
      goal_seconds: GOAL_SECONDS,
      worst_seconds: worst,
      within_goal: worst <= GOAL_SECONDS,
      runs,
      load_average: Number((await readFile('/proc/loadavg', 'utf8')).split(' ')[0]),
    }),
  );
} finally {
  child?.kill('SIGTERM');
  await db.end().catch(() => undefined);
  await database.drop();
}
