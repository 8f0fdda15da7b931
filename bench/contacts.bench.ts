// Contacts at a million rows: CSV import through the real HTTP API against the COPY floor, the
// API process's peak memory, and list/search latencies over loopback with 1,000,000 contacts in the account.
import type { ChildProcess } from 'node:child_process';
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { migrate } from '../apps/server/src/db/migrate';
import { signUpBenchBusiness, startApiProcess } from './api-process';
import { createScratchDatabase } from '../test-support/database-server';
import { benchNumber, FIRST_NAMES, LAST_NAMES, writeContactsCsv } from './contacts-fixtures';

const ROWS = Number(process.env.BENCH_CONTACTS_ROWS ?? 1_000_000);
const REQUESTS = 200;

const database = await createScratchDatabase(`herald_bench_contacts_${process.pid}`);
const url = database.url;
const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-bench-contacts-'));
const csvPath = path.join(dir, 'contacts.csv');
const db = new pg.Client({ connectionString: url });
let child: ChildProcess | undefined;

const seconds = (from: number) => Number(((performance.now() - from) / 1000).toFixed(2));
const mib = (kb: number) => Math.round(kb / 1024);

/** VmHWM (peak resident set) and VmRSS of a process, in kB. */
async function memory(pid: number): Promise<{ hwm: number; rss: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { hwm: field('VmHWM'), rss: field('VmRSS') };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resets VmHWM to the current RSS, so the next reading is the peak of one phase. */
const resetPeak = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);

async function timeCopy(table: string): Promise<number> {
  const started = performance.now();
  await pipeline(
    createReadStream(csvPath),
    db.query(
      copyFrom(
        `copy ${table} (name, whatsapp_number, age, gender, address, post_code, email)
         from stdin (format csv, header true)`,
      ),
    ),
  );
  return seconds(started);
}

async function latencies(label: string, urls: string[], headers: Record<string, string>) {
  const times: number[] = [];
  let count = 0;
  for (const target of urls) {
    const started = performance.now();
    const response = await fetch(target, { headers });
    const body = (await response.json()) as { count: number };
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${label}: ${response.status} ${JSON.stringify(body)}`);
    count = body.count;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1));
  return { p50_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1), last_count: count };
}

try {
  await migrate(url);
  await db.connect();

  const started = await startApiProcess(url);
  child = started.child;
  const { api, pid } = started;
  // A signed-up user with one business account, the way the web gets one.
  const { business, headers } = await signUpBenchBusiness(started);
  const { rows } = await db.query<{ id: string }>('select id from waba_accounts where waba_id = $1', [
    business.waba_id,
  ]);
  const wabaId = rows[0]!.id;

  const csvBytes = await writeContactsCsv(csvPath, ROWS);

  // The floor: COPY of the same file, no validation, into a table with the same columns and indexes.
  // Measured into a regular table (WAL-logged, as contacts is) and into a temp one (not WAL-logged).
  await db.query('create table floor_contacts (like contacts including all)');
  await db.query(`alter table floor_contacts alter column waba_account_id set default ${wabaId}`);
  const floorSeconds = await timeCopy('floor_contacts');
  await db.query('drop table floor_contacts');
  await db.query('create temp table floor_temp (like contacts including all)');
  await db.query(`alter table floor_temp alter column waba_account_id set default ${wabaId}`);
  const floorTempSeconds = await timeCopy('floor_temp');
  await db.query('drop table floor_temp');
  await db.query('checkpoint');

  const upload = async () => {
    const form = new FormData();
    form.append('tag', 'bench');
    form.append('file', await openAsBlob(csvPath, { type: 'text/csv' }), 'contacts.csv');
    await resetPeak(pid);
    const before = await memory(pid);
    const cpuBefore = await cpuSeconds(pid);
    const ownCpuBefore = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(`${api}/recipient/import/`, { method: 'POST', headers, body: form });
    const body = (await response.json()) as Record<string, unknown>;
    const elapsed = seconds(started);
    if (response.status !== 201)
      throw new Error(`import: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
    const after = await memory(pid);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    return {
      seconds: elapsed,
      body,
      rssBeforeMiB: mib(before.rss),
      peakMiB: mib(after.hwm),
      serverCpu: Number(((await cpuSeconds(pid)) - cpuBefore).toFixed(1)),
      clientCpu: Number(((ownCpu.user + ownCpu.system) / 1e6).toFixed(1)),
    };
  };
  const imported = await upload();
  await db.query('checkpoint');
  const reimported = await upload();

  // Autovacuum does this within a minute of a large import (insert-triggered since PostgreSQL 13); the
  // bench does not wait for it: it sets the visibility map (index-only paging) and the planner statistics.
  await db.query('vacuum (analyze) contacts');
  await db.query('analyze contact_tags');

  const list = (query: string) => `${api}/recipient/create/?${query}`;
  const total = ROWS;
  const middle = Math.floor(total / 10 / 2);
  const searches: string[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const row = (i * 48_271) % total;
    const first = FIRST_NAMES[row % FIRST_NAMES.length]!;
    const last = LAST_NAMES[Math.floor(row / FIRST_NAMES.length) % LAST_NAMES.length]!;
    const kind = i % 4;
    const term =
      kind === 0
        ? benchNumber(row).slice(3, 10) // a number fragment: 7 digits from the middle
        : kind === 1
          ? `${first}.${last}${row}`.toLowerCase().slice(0, 14) // an e-mail fragment
          : kind === 2
            ? first // a first name
            : last.toLowerCase(); // a last name
    searches.push(list(`search=${encodeURIComponent(term)}&page_size=10`));
  }

  const pageOne = await latencies('page 1', Array(REQUESTS).fill(list('page=1&page_size=10')), headers);
  const pageMiddle = await latencies(
    'middle page',
    Array.from({ length: REQUESTS }, (_, i) => list(`page=${middle - 50 + (i % 100)}&page_size=10`)),
    headers,
  );
  const search = await latencies('search', searches, headers);
  const idle = await memory(pid);

  console.log(
    JSON.stringify({
      benchmark: 'contacts',
      database: database.source,
      rows: ROWS,
      csv_mb: Number((csvBytes / 1e6).toFixed(1)),
      copy_floor_s: floorSeconds,
      copy_floor_temp_table_s: floorTempSeconds,
      import_s: imported.seconds,
      import_result: imported.body,
      import_ratio: Number((imported.seconds / floorSeconds).toFixed(2)),
      import_ratio_vs_temp_floor: Number((imported.seconds / floorTempSeconds).toFixed(2)),
      import_rows_per_s: Math.round(ROWS / imported.seconds),
      import_server_peak_rss_mb: imported.peakMiB,
      server_rss_before_import_mb: imported.rssBeforeMiB,
      import_server_cpu_s: imported.serverCpu,
      import_client_cpu_s: imported.clientCpu,
      reimport_s: reimported.seconds,
      reimport_result: reimported.body,
      reimport_ratio: Number((reimported.seconds / floorSeconds).toFixed(2)),
      reimport_server_peak_rss_mb: reimported.peakMiB,
      reimport_server_cpu_s: reimported.serverCpu,
      page1: pageOne,
      middle_page: { page: middle, ...pageMiddle },
      search: { mix: 'number fragments, e-mail fragments, first names, last names', ...search },
      server_rss_after_mb: mib(idle.rss),
    }),
  );
} finally {
  child?.kill('SIGTERM');
  await db.end().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await database.drop();
}
