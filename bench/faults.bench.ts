// The fault suite at full size (the tests in apps/server/src/fault-suite/ run smaller ones in
// `npm test`): `herald work` killed with SIGKILL 20 times in a 20,000-recipient broadcast at 1,000 mps, Postgres
// away for 60 s under 2 APIs and 3 workers, and the Cloud API failing every send for 60 s mid-broadcast. It runs those test files through vitest (they need its
// database global setup) with the sizes in the environment, and prints each file's verdict and figure line.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
const runs = [
  {
    name: 'worker_kill_20x20000',
    file: 'apps/server/src/fault-suite/worker-kill.int.test.ts',
    env: { FAULT_RECIPIENTS: '20000', FAULT_KILLS: '20', FAULT_MPS: '1000' },
    line: /worker SIGKILL [^\n]*/,
  },
  {
    name: 'postgres_outage_60s',
    file: 'apps/server/src/fault-suite/postgres-restart-scaled.int.test.ts',
    env: { FAULT_PG_OUTAGE_MS: '60000' },
    line: /Postgres restart under [^\n]*/,
  },
  {
    name: 'cloud_api_outage_60s',
    file: 'apps/server/src/fault-suite/cloud-api-outage.int.test.ts',
    env: { FAULT_OUTAGE_MS: '60000' },
    line: /Cloud API outage [^\n]*/,
  },
];

const figures: Record<string, { passed: boolean; seconds: number; figures: string | null }> = {};
for (const run of runs) {
  const started = Date.now();
  const result = spawnSync('npx', ['vitest', 'run', '--project', 'integration-alone', run.file], {
    cwd: repoRoot,
    env: { ...process.env, ...run.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // vitest colours its output: the figure line is found once the escapes are gone.
  // eslint-disable-next-line no-control-regex
  const output = `${result.stdout}\n${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  figures[run.name] = {
    passed: result.status === 0,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    figures: run.line.exec(output)?.[0] ?? null,
  };
  if (result.status !== 0) process.stderr.write(output.slice(-8_000));
}
console.log(JSON.stringify({ bench: 'faults', ...figures }));
process.exit(Object.values(figures).every((figure) => figure.passed) ? 0 : 1);
