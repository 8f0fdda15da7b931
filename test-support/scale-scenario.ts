import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPool } from '../apps/server/src/db/pool';
import {
  apiLogin,
  createApprovedTemplate,
  DEFAULT_TEMPLATE,
  sandboxBusiness,
  signUpSandboxBusiness,
} from './business';
import {
  cpuSeconds,
  type NodeProcess,
  roundRobinProxy,
  runMigrate,
  startSandboxProcess,
  startServe,
  stopProcess,
} from './processes';
import { spawnTestWorker } from './worker';

// Herald scaled out on one Postgres. `herald migrate`, then API and worker processes of their
// own, the sandbox Cloud API in its own process with status webhooks spread over the APIs by a round-robin
// proxy, and one account with two numbers each sending one broadcast to every contact at the number's cap.
// The scale-out integration test and bench/scale.bench.ts run it at different sizes and read its figures.

export interface ScaleOptions {
  /** A database on the machine's Postgres, empty or migrated: `herald migrate` runs first either way. */
  databaseUrl: string;
  recipientsPerNumber: number;
  /** Each number's cap (the sandbox's bucket and Herald's HIGH level agree at 1,000). */
  mps: number;
  apis: number;
  workers: number;
  /** Gives up waiting for the broadcasts after this long. */
  timeoutMs: number;
}

export interface NumberFigures {
  phone_number_id: string;
  broadcast_id: number;
  status: string;
  /** The sandbox's log of accepted sends: the ground truth for duplicates. */
  accepted_in_sandbox: number;
  unique_recipients: number;
  duplicate_recipients: unknown[];
  /** Message rows by state. */
  states: Record<string, number>;
  /** Rows requested more than once (a retry after 130429, 5xx or a network error). */
  rows_attempted_twice: number;
  send_seconds: number;
  rate_mps: number;
  share_of_cap: number;
  /** Sends accepted in each 10 s from the first: shows whether the rate held or sagged. */
  accepted_per_10s: number[];
  /** Sends accepted in each of the first 10 seconds: how fast the number got up to its cap. */
  accepted_first_10_per_s: number[];
}

export interface WorkerFigures {
  pid: number;
  /** Sends this worker settled as accepted, from its own /metrics. */
  accepted: number;
  /** 130429 answers this worker received (retried), from its own /metrics. */
  answers_130429: number;
  cpu_seconds: number;
}

export interface ScaleFigures {
  numbers: NumberFigures[];
  workers: WorkerFigures[];
  /** Lease holders seen while sending (host:pid:nonce), per phone number row id. */
  lease_holders: Record<string, string[]>;
  /** Webhook requests the proxy handed to each API process. */
  webhooks_per_api: number[];
  /** CPU seconds each API process used while the broadcasts ran (mostly status webhooks). */
  api_cpu_seconds: number[];
  sandbox_cpu_seconds: number;
  /** From the first create to both broadcasts completed with every status applied. */
  wall_seconds: number;
}

/** States a message never leaves (`sent` still waits for delivered; 131026 numbers, digits ending 0000, end not_on_whatsapp). */
export const FINAL_STATES = ['delivered', 'read', 'failed', 'not_on_whatsapp', 'expired', 'cancelled'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `name{labels} value` lines of a Prometheus text answer whose name and labels contain every `parts`. */
function metricSum(text: string, name: string, ...parts: string[]): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && parts.every((part) => line.includes(part)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

export async function runScaleScenario(options: ScaleOptions): Promise<ScaleFigures> {
  const { databaseUrl, recipientsPerNumber: recipients, mps } = options;
  const processes: NodeProcess[] = [];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-scale-'));
  const pool = createPool(databaseUrl, 4);
  let proxy: Awaited<ReturnType<typeof roundRobinProxy>> | undefined;
  try {
    await runMigrate({ DATABASE_URL: databaseUrl });
    const sandboxProcess = await startSandboxProcess(dataDir, {
      SANDBOX_REVIEW_DELAY_MS: '50',
      // No 24-hour limit in the way of 2 × N recipients: Herald reads the tier from the number at sign-up.
      SANDBOX_DEFAULT_MESSAGING_LIMIT: 'TIER_UNLIMITED',
    });
    processes.push(sandboxProcess);
    const sandboxUrl = sandboxProcess.url;
    const sandbox = async (p: string, body?: object) => {
      const response = await fetch(`${sandboxUrl}${p}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (response.status >= 300)
        throw new Error(`sandbox ${p}: ${response.status} ${await response.text()}`);
      return response.json();
    };

    const env = {
      DATABASE_URL: databaseUrl,
      GRAPH_API_BASE: sandboxUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      WEB_DIST_DIR: '/nonexistent',
    };
    const started = await Promise.all([
      ...Array.from({ length: options.apis }, () => startServe(env)),
      ...Array.from({ length: options.workers }, () => spawnTestWorker({ env, waitUntilStarted: true })),
    ]);
    processes.push(...started);
    const apis = started.slice(0, options.apis);
    const workers = started.slice(options.apis);
    proxy = await roundRobinProxy(apis.map((api) => api.url));
    await sandbox('/__sandbox/config', {
      webhook_url: `${proxy.url}/webhooks/whatsapp`,
      status_delays_ms: { sent: 100, delivered: 300 },
      read_rate: 0,
    });

    // One business, its first number and a second one, both at HIGH throughput with the cap set explicitly.
    const business = await sandboxBusiness(sandboxUrl, 'Scale Co');
    const second = (await sandbox(`/__sandbox/wabas/${business.waba_id}/phone-numbers`, {})) as {
      id: string;
    };
    const numberIds = [business.phone_number_id, second.id];
    for (const id of numberIds)
      await sandbox(`/__sandbox/phone-numbers/${id}`, { throughput_level: 'HIGH', mps });

    const api = async (index: number, method: string, p: string, body?: object, headers = {}) => {
      const response = await fetch(`${apis[index % apis.length]!.url}${p}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${p}: ${response.status} ${text}`);
      return JSON.parse(text);
    };
    // Signed up through one API process, signed in through the other: they share nothing but Postgres.
    const through = (index: number) => ({ url: apis[index]!.url, sandboxUrl });
    await signUpSandboxBusiness(through(0), business, 'scale@herald.test', 'scale out password');
    const accessToken = await apiLogin(through(1), 'scale@herald.test', 'scale out password');
    const headers = { authorization: `Bearer ${accessToken}`, 'x-waba-id': business.waba_id };
    await api(1, 'GET', '/meta/phone/whatsapp/', undefined, headers); // stores the second number
    await pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number)
       select w.id, 'Person ' || i, '+1628' || lpad(i::text, 7, '0') from waba_accounts w, generate_series(1, $1) i`,
      [recipients],
    );
    await pool.query('analyze contacts');
    // Approved by the sandbox's review webhook, which reaches an API through the proxy.
    const templateId = await createApprovedTemplate(through(0), headers, {
      ...DEFAULT_TEMPLATE,
      name: 'scale_hello',
    });

    // Every worker beats once a tick (worker-share.ts); the broadcasts start once all of them have, so the fair
    // share counts every worker from the first number on.
    for (const until = Date.now() + 30_000; ; await sleep(50)) {
      const { rows } = await pool.query<{ n: number }>(
        "select count(*)::int as n from broadcast_workers where seen_at > now() - interval '5 seconds'",
      );
      if (rows[0]!.n >= workers.length) break;
      if (Date.now() > until) throw new Error(`${rows[0]!.n} of ${workers.length} workers beat within 30 s`);
    }
    const cpuBefore = workers.map((worker) => cpuSeconds(worker.pid));
    const othersBefore = [...apis, sandboxProcess].map((proc) => cpuSeconds(proc.pid));
    const startedAt = Date.now();
    const create = (i: number) =>
      api(
        i,
        'POST',
        '/broadcast/create/',
        {
          name: `Scale ${i + 1}`,
          template_id: templateId,
          phone_number_id: numberIds[i],
          recipients: { type: 'all', percentage: 100 },
        },
        headers,
      ).then((created) => created.id as number);
    /** The lease holder of a number (Meta id) once one holds it. */
    const leaseHolder = async (phoneNumberId: string, withinMs: number) => {
      const until = Date.now() + withinMs;
      while (Date.now() < until) {
        const { rows } = await pool.query<{ holder: string }>(
          `select l.holder from sender_leases l join phone_numbers p on p.id = l.phone_number_id
            where p.phone_number_id = $1`,
          [phoneNumberId],
        );
        if (rows[0]) return rows[0].holder;
        await sleep(10);
      }
      return null;
    };
    // Number 1's broadcast first, then number 2's once number 1 is being sent: the worker sending number 1
    // already holds its fair share (one number of two among three live workers: worker-share.ts), so it leaves
    // number 2 to another worker, whichever ticks first. Nothing is held or timed to make that happen.
    const broadcastIds = [await create(0)];
    if ((await leaseHolder(numberIds[0]!, 10_000)) === null)
      throw new Error('no worker took number 1 within 10 s');
    broadcastIds.push(await create(1));

    const holders = new Map<string, Set<string>>();
    const deadline = startedAt + options.timeoutMs;
    for (;;) {
      const { rows: leases } = await pool.query<{ phone_number_id: string; holder: string }>(
        'select phone_number_id::text, holder from sender_leases',
      );
      for (const lease of leases) {
        if (!holders.has(lease.phone_number_id)) holders.set(lease.phone_number_id, new Set());
        holders.get(lease.phone_number_id)!.add(lease.holder);
      }
      const { rows } = await pool.query<{ done: boolean }>(
        `select bool_and(b.status = 'completed'
                 and not exists (select 1 from broadcast_messages m
                                  where m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
                                    and m.state <> all($2::text[]))) as done
           from broadcasts b where b.id = any($1::bigint[])`,
        [broadcastIds, FINAL_STATES],
      );
      if (rows[0]!.done || Date.now() > deadline) break;
      await sleep(100);
    }
    const wallSeconds = (Date.now() - startedAt) / 1000;
    const cpuAfter = workers.map((worker) => cpuSeconds(worker.pid));
    const othersAfter = [...apis, sandboxProcess].map((proc) => cpuSeconds(proc.pid));
    const othersUsed = othersAfter.map((after, i) => Number((after - othersBefore[i]!).toFixed(2)));

    const numbers: NumberFigures[] = [];
    for (const [i, broadcastId] of broadcastIds.entries()) {
      const log = (await sandbox(`/__sandbox/messages?phone_number_id=${numberIds[i]}&limit=0`)) as {
        total: number;
        unique_recipients: number;
        duplicate_recipients: unknown[];
      };
      const { rows: states } = await pool.query<{ state: string; n: number }>(
        `select m.state, count(*)::int as n from broadcasts b
           join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
          where b.id = $1 group by m.state`,
        [broadcastId],
      );
      const { rows } = await pool.query(
        `select b.status, count(*) filter (where m.attempts > 1)::int as twice,
                extract(epoch from (max(m.accepted_at) - min(m.accepted_at)))::float8 as seconds, count(m.accepted_at)::int as accepted
           from broadcasts b join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
          where b.id = $1 group by b.status`,
        [broadcastId],
      );
      const row = rows[0]!;
      /** Accepted sends per `seconds` from the first one (the first `buckets` of them when given). */
      const acceptedPer = async (seconds: number, buckets?: number) =>
        (
          await pool.query<{ bucket: number; n: number }>(
            `with m as (select m.accepted_at from broadcasts b
                          join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
                         where b.id = $1 and m.accepted_at is not null),
                  buckets as (select floor(extract(epoch from (m.accepted_at - f.t0)) / $2) as bucket
                                from m, (select min(accepted_at) as t0 from m) f)
             select bucket, count(*)::int as n from buckets
              where $3::int is null or bucket < $3 group by bucket order by bucket`,
            [broadcastId, seconds, buckets ?? null],
          )
        ).rows.reduce<number[]>((counts, r) => {
          // An empty bucket has no row: its zero is written here, so a stall shows.
          counts[Number(r.bucket)] = r.n;
          return Array.from(counts, (n) => n ?? 0);
        }, []);
      const rate = row.accepted / Number(row.seconds);
      numbers.push({
        phone_number_id: numberIds[i]!,
        broadcast_id: broadcastId,
        status: row.status,
        accepted_in_sandbox: log.total,
        unique_recipients: log.unique_recipients,
        duplicate_recipients: log.duplicate_recipients,
        states: Object.fromEntries(states.map((s) => [s.state, s.n])),
        rows_attempted_twice: row.twice,
        send_seconds: Number(Number(row.seconds).toFixed(2)),
        rate_mps: Math.round(rate),
        share_of_cap: Number((rate / mps).toFixed(3)),
        accepted_per_10s: await acceptedPer(10),
        accepted_first_10_per_s: await acceptedPer(1, 10),
      });
    }
    const workerFigures: WorkerFigures[] = [];
    for (const [i, worker] of workers.entries()) {
      const metrics = await (await fetch(`${worker.url}/metrics`)).text();
      workerFigures.push({
        pid: worker.pid,
        accepted: metricSum(metrics, 'herald_messages_sent_total', 'outcome="accepted"'),
        answers_130429: metricSum(metrics, 'herald_messages_sent_total', 'code="130429"'),
        cpu_seconds: Number((cpuAfter[i]! - cpuBefore[i]!).toFixed(2)),
      });
    }
    return {
      numbers,
      workers: workerFigures,
      lease_holders: Object.fromEntries([...holders].map(([id, set]) => [id, [...set]])),
      webhooks_per_api: [...proxy.forwarded],
      api_cpu_seconds: othersUsed.slice(0, apis.length),
      sandbox_cpu_seconds: othersUsed[apis.length]!,
      wall_seconds: Number(wallSeconds.toFixed(2)),
    };
  } finally {
    await Promise.all(processes.map((proc) => stopProcess(proc)));
    await proxy?.close();
    await pool.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
