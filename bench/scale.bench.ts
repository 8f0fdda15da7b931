// Scale-out: the scale-out test's setup at bench size. `herald migrate`, then 2 `herald serve`
// and 3 `herald work` processes on one database of the machine's Postgres, the sandbox Cloud API in its own
// process posting status webhooks through a round-robin proxy to both APIs; two numbers each send 50,000
// recipients at 1,000 mps. Figures: each number's share of its cap (goal ≥ 0.90), the worker processes' CPU
// seconds per 1,000 messages (/proc/<pid>/stat utime + stime, before and after), duplicates, 130429 answers.
// BENCH_RECIPIENTS changes the size per number.
import { loadavg } from 'node:os';
import { createScratchDatabase } from '../test-support/database-server';
import { runScaleScenario } from '../test-support/scale-scenario';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 50_000);
const MPS = 1_000;

const database = await createScratchDatabase(`herald_bench_scale_${process.pid}`);
try {
  const loadBefore = loadavg();
  const figures = await runScaleScenario({
    databaseUrl: database.url,
    recipientsPerNumber: RECIPIENTS,
    mps: MPS,
    apis: 2,
    workers: 3,
    timeoutMs: Math.max(120_000, (RECIPIENTS / MPS) * 4_000),
  });
  const messages = figures.numbers.reduce((sum, n) => sum + n.accepted_in_sandbox, 0);
  const workerCpu = figures.workers.reduce((sum, w) => sum + w.cpu_seconds, 0);
  console.log(
    JSON.stringify({
      benchmark: 'scale',
      processes: { api: 2, worker: 3 },
      recipients_per_number: RECIPIENTS,
      cap_mps: MPS,
      numbers: figures.numbers.map((n) => ({
        phone_number_id: n.phone_number_id,
        status: n.status,
        messages: n.accepted_in_sandbox,
        duplicates: n.duplicate_recipients.length,
        rows_attempted_twice: n.rows_attempted_twice,
        states: n.states,
        send_seconds: n.send_seconds,
        rate_mps: n.rate_mps,
        share_of_cap: n.share_of_cap,
        accepted_per_10s: n.accepted_per_10s,
        accepted_first_10_per_s: n.accepted_first_10_per_s,
      })),
      share_of_cap_goal: 0.9,
      worker_cpu_seconds_per_1000_messages: Number(((workerCpu / messages) * 1000).toFixed(3)),
      workers: figures.workers,
      answers_130429: figures.workers.reduce((sum, w) => sum + w.answers_130429, 0),
      webhooks_per_api: figures.webhooks_per_api,
      api_cpu_seconds: figures.api_cpu_seconds,
      sandbox_cpu_seconds: figures.sandbox_cpu_seconds,
      wall_seconds: figures.wall_seconds,
      load_average_before: loadBefore.map((l) => Number(l.toFixed(2))),
      load_average_after: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  await database.drop();
}
