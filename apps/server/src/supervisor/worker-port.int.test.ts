import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';
import { serverCli } from '../paths';

// The worker's probe port: one asked for explicitly must be served; the default one taken (a second worker on
// the machine) costs only that worker's probes.
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

/** Holds `port` (0: any) on loopback; resolves with the server, or null when something else holds it. */
function hold(port: number): Promise<net.Server | null> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const release = (server: net.Server | null) =>
  new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));

/** Runs `herald work`; once it has started, `whileRunning` gets its output, then it is sent SIGTERM. */
function work(env: Record<string, string>, whileRunning: (output: string) => Promise<void> = async () => {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', serverCli, 'work'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: db.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  let checked: Promise<void> = Promise.resolve();
  return new Promise<{ output: string; code: number | null }>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (!started && /worker started/.test(output)) {
        started = true;
        checked = whileRunning(output).finally(() => child.kill('SIGTERM'));
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => checked.then(() => resolve({ output, code }), reject));
  });
}

describe('herald work and WORKER_PORT', () => {
  it('serves /healthz, /readyz and /metrics on the port it is given', async () => {
    const free = await hold(0);
    const port = (free!.address() as net.AddressInfo).port;
    await release(free);
    const answers: Record<string, number> = {};
    const result = await work({ WORKER_PORT: String(port) }, async (output) => {
      expect(output).toContain(`on http://127.0.0.1:${port}`);
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        answers[path] = (await fetch(`http://127.0.0.1:${port}${path}`)).status;
      }
    });
    expect(answers).toEqual({ '/healthz': 200, '/readyz': 200, '/metrics': 200 });
    expect(result.code).toBe(0);
  }, 60_000);

  it('stops with one line naming WORKER_PORT when the port it was given is taken', async () => {
    const taken = await hold(0);
    const port = (taken!.address() as net.AddressInfo).port;
    try {
      const result = await work({ WORKER_PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.output).toMatch(new RegExp(`herald: WORKER_PORT ${port}: .*EADDRINUSE`));
    } finally {
      await release(taken);
    }
  }, 60_000);

  it('works on without probes, and says so, when the default port is taken', async () => {
    // Held here, or by something else already: taken either way.
    const taken = await hold(3001);
    try {
      const result = await work({});
      expect(result.output).toContain('WORKER_PORT 3001 is in use');
      expect(result.output).toMatch(/"msg":"worker started"/);
      expect(result.code).toBe(0);
    } finally {
      await release(taken);
    }
  }, 60_000);
});
