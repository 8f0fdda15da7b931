import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnChild } from './child';
import { keepRunning } from './restarting-child';

// A child that says it is ready, then exits with code 3 after the given milliseconds (or never, given 0),
// writing its pid to a file so the test can see each process it was.
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'herald-restart-'));
  script = path.join(dir, 'flaky.mjs');
  await writeFile(
    script,
    `import { appendFileSync } from 'node:fs';
     const [pidFile, lifetime] = process.argv.slice(2);
     appendFileSync(pidFile, process.pid + '\\n');
     process.send({ type: 'ready' });
     if (Number(lifetime) > 0) setTimeout(() => process.exit(3), Number(lifetime));
     else setInterval(() => undefined, 1000);
     process.on('SIGTERM', () => process.exit(0));`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(25);
  }
}

describe('keepRunning (the supervisor of `npm start`)', () => {
  it('restarts a child that exits unexpectedly with a doubling, capped back-off and says so', async () => {
    const lines: string[] = [];
    const pidFile = path.join(dir, 'pids-backoff');
    const flaky = keepRunning({
      name: 'worker',
      spawn: () => spawnChild('worker', script, [pidFile, '50'], process.env, (line) => lines.push(line)),
      write: (line) => lines.push(line),
      policy: { firstDelayMs: 100, maxDelayMs: 300, resetAfterMs: 60_000 },
    });
    await flaky.ready();
    await waitFor(() => lines.filter((line) => line.includes('exited unexpectedly')).length >= 4);
    await flaky.stop(1_000);
    const exits = lines.filter((line) => line.includes('exited unexpectedly'));
    expect(exits.slice(0, 4)).toEqual([
      'worker exited unexpectedly (code 3); restarting in 0.1 s',
      'worker exited unexpectedly (code 3); restarting in 0.2 s',
      'worker exited unexpectedly (code 3); restarting in 0.3 s',
      'worker exited unexpectedly (code 3); restarting in 0.3 s',
    ]);
    expect(lines).toContain('worker restarted');
  }, 30_000);

  it('starts the back-off over after a child ran for resetAfterMs, and stop() ends it for good', async () => {
    const lines: string[] = [];
    const pidFile = path.join(dir, 'pids-reset');
    const steady = keepRunning({
      name: 'server',
      spawn: () => spawnChild('server', script, [pidFile, '300'], process.env, (line) => lines.push(line)),
      write: (line) => lines.push(line),
      policy: { firstDelayMs: 100, maxDelayMs: 30_000, resetAfterMs: 200 },
    });
    await steady.ready();
    await waitFor(() => lines.filter((line) => line.includes('exited unexpectedly')).length >= 3);
    // Each process ran past resetAfterMs, so every restart waits the first delay again.
    const exits = lines.filter((line) => line.includes('exited unexpectedly'));
    expect(new Set(exits)).toEqual(new Set(['server exited unexpectedly (code 3); restarting in 0.1 s']));
    await steady.stop(1_000);
    const pids = (await readFile(pidFile, 'utf8')).trim().split('\n').map(Number);
    const countAtStop = pids.length;
    await sleep(600);
    // No process left, and none started after stop().
    expect(pids.every((pid) => !alive(pid))).toBe(true);
    expect((await readFile(pidFile, 'utf8')).trim().split('\n')).toHaveLength(countAtStop);
  }, 30_000);

  it('stops a healthy child on stop() without restarting it', async () => {
    const lines: string[] = [];
    const pidFile = path.join(dir, 'pids-healthy');
    const healthy = keepRunning({
      name: 'sandbox',
      spawn: () => spawnChild('sandbox', script, [pidFile, '0'], process.env, (line) => lines.push(line)),
      write: (line) => lines.push(line),
      policy: { firstDelayMs: 50, maxDelayMs: 50, resetAfterMs: 60_000 },
    });
    await healthy.ready();
    await healthy.stop(1_000);
    await sleep(300);
    expect(lines.filter((line) => line.includes('exited unexpectedly'))).toEqual([]);
  }, 30_000);

  it('rejects ready() when the first process exits before it is ready, and does not restart it', async () => {
    const lines: string[] = [];
    const broken = keepRunning({
      name: 'postgres',
      spawn: () =>
        spawnChild('postgres', path.join(dir, 'missing.mjs'), [], process.env, (line) => lines.push(line)),
      write: (line) => lines.push(line),
      policy: { firstDelayMs: 50, maxDelayMs: 50, resetAfterMs: 60_000 },
    });
    await expect(broken.ready()).rejects.toThrow(/postgres exited \(1\) before it was ready/);
    await sleep(300);
    expect(lines.filter((line) => line.includes('exited unexpectedly'))).toEqual([]);
    await broken.stop();
  }, 30_000);
});
