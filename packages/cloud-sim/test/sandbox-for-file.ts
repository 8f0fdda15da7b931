import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/server';
import { call } from './sandbox-client';

/**
 * One sandbox for a test file, its calls logged to a temp file, reset before each test. Read `url` and
 * `logFile` inside tests and hooks (they are set once the file's first hook has run).
 */
export function sandboxForFile(name: string): { url: string; logFile: string } {
  const sim = { url: '', logFile: '' };
  let sandbox: RunningSandbox | undefined;
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `herald-sandbox-${name}-`));
    sim.logFile = join(dir, 'calls.jsonl');
    // Reviews far in the future: templates stay PENDING unless a test forces a verdict.
    sandbox = await startSandbox({ port: 0, logFile: sim.logFile, reviewDelayMs: 600_000 });
    sim.url = sandbox.url;
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await call(sim.url, '/__sandbox/reset', { method: 'POST' });
  });
  return sim;
}
