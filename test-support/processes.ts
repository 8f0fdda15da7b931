import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { TestApp } from './test-app';
import { TEST_PORTFOLIO_TIER } from './test-config';

// Herald's parts as separate processes, the way production runs them (docs/production.md): the sandbox Cloud API,
// `herald serve`, `herald migrate`. Used by the scale-out test and the benches that run the sandbox apart;
// `herald work` is started by test-support/worker.ts, on top of startNode. docs/testing.md lists which helper
// starts what.

export const repoRoot = path.resolve(import.meta.dirname, '..');
export const serverCli = path.join(repoRoot, 'apps/server/src/cli.ts');
const sandboxCli = path.join(repoRoot, 'packages/cloud-sim/src/cli.ts');

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  /** The URL named by the line that said the process is ready. */
  url: string;
  exited: Promise<number | null>;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
}

/** Starts `node --import tsx <script> <args>` and resolves once a stdout line matches `ready` (its group 1: a URL). */
export function startNode(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<NodeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Only the tail is kept: an API logs a line per request and a run makes thousands.
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stderr!.on('data', keep);
  return new Promise((resolve, reject) => {
    let found = false;
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      if (found) return;
      pending += chunk.toString();
      const match = pending
        .split('\n')
        .map((line) => ready.exec(line))
        .find(Boolean);
      if (!match) return;
      found = true;
      resolve({ child, pid: child.pid!, url: match[1] ?? '', exited, output: () => output });
    });
    void exited.then((code) => {
      if (!found) reject(new Error(`${name} exited (${code}) before it was ready: ${output}`));
    });
  });
}

/** The sandbox Cloud API in its own process on a free port, its call log and state in `dataDir`. */
export function startSandboxProcess(dataDir: string, env: Record<string, string> = {}) {
  return startNode(
    'sandbox',
    [sandboxCli],
    {
      SANDBOX_PORT: '0',
      SANDBOX_LOG_FILE: path.join(dataDir, 'calls.jsonl'),
      SANDBOX_STATE_DIR: dataDir,
      SANDBOX_DEFAULT_MESSAGING_LIMIT: TEST_PORTFOLIO_TIER,
      ...env,
    },
    /listening on (http:\/\/\S+)/,
  );
}

/** `herald serve` on a free port. */
export function startServe(env: Record<string, string>) {
  return startNode(
    'herald serve',
    [serverCli, 'serve'],
    { PORT: '0', LOG_LEVEL: 'info', ...env },
    /listening at (http:\/\/[\d.:]+)/,
  );
}

/** What `herald serve` and `herald work` need to run against a test app's database and sandbox. */
export function testAppEnv(t: Pick<TestApp, 'db' | 'sandboxUrl' | 'config'>): Record<string, string> {
  return {
    DATABASE_URL: t.db.url,
    GRAPH_API_BASE: t.sandboxUrl,
    JWT_SECRET: t.config.JWT_SECRET!,
    ENCRYPTION_KEY: t.config.ENCRYPTION_KEY!,
  };
}

/** `herald migrate` to completion; throws with its output when it fails. */
export function runMigrate(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverCli, 'migrate'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`herald migrate exited ${code}: ${output}`)),
    );
  });
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
export async function stopProcess(proc: NodeProcess, graceMs = 10_000): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  const code = await proc.exited;
  clearTimeout(timer);
  return code;
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded to each target, in the order the targets were given. */
  forwarded: number[];
  close(): Promise<void>;
}

/**
 * A tiny load balancer: each request goes to the next target in turn, body and headers as they came (the
 * webhook signature is over the raw body). The sandbox posts webhooks to one URL, as Meta does; in production a
 * load balancer spreads them over the API processes the same way.
 */
export function roundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  const forwarded = targets.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next;
    next = (next + 1) % targets.length;
    forwarded[index]! += 1;
    const target = new URL(request.url ?? '/', targets[index]);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host }, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        forwarded,
        close: () =>
          new Promise((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
