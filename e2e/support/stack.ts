import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test-support/database-server';
import { TEST_PORTFOLIO_TIER } from '../../test-support/test-config';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface StackPorts {
  port: number;
  sandboxPort: number;
  pgPort: number;
}

/** What a spec reaches a stack by, whether the stack is its own or shared (shared-stack.ts). */
export interface StackView {
  url: string;
  sandboxUrl: string;
  /** What the stack printed: all of it for a spec's own stack, since the spec asked for it when shared. */
  output(): string;
}

export interface Stack extends StackView {
  /** The ports it listens on, to start it again on the same ones (as a user's second `npm start` would). */
  ports: StackPorts;
  dataDir: string;
  process: ChildProcess;
  /** SIGINT, as a user's Ctrl-C; resolves when the start command has exited. */
  stop(): Promise<void>;
}

/**
 * Runs `npm start`'s entry (scripts/start.mjs) exactly as a user would, on free ports, with its data under a
 * temporary folder (or `dataDir` to reuse one), and waits until it prints its URL. `ports` reuses a previous
 * stack's ports; `logFile` also receives everything it prints, for other processes to read.
 */
type StackOptions = { dataDir?: string; env?: Record<string, string>; ports?: StackPorts; logFile?: string };

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  try {
    return await startStackOnce(options);
  } catch (error) {
    // A free port picked here can be taken by another process's outgoing connection before the stack binds it:
    // with ports of its own choosing, the stack starts again once on fresh ones.
    if (options.ports || !/EADDRINUSE|is in use/.test((error as Error).message)) throw error;
    return startStackOnce(options);
  }
}

async function startStackOnce(options: StackOptions): Promise<Stack> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'herald-e2e-')));
  const { port, sandboxPort, pgPort } = options.ports ?? {
    port: await freePort(),
    sandboxPort: await freePort(),
    pgPort: await freePort(),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    EMBEDDED_PG_PORT: String(pgPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SANDBOX_DEFAULT_MESSAGING_LIMIT: TEST_PORTFOLIO_TIER,
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/start.mjs')], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    // Written at once, so a spec printing its clues on failure reads all that has been printed.
    if (options.logFile) appendFileSync(options.logFile, chunk);
  };
  child.stdout.on('data', record);
  child.stderr.on('data', record);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`start did not print its URL in time:\n${output}`)),
      170_000,
    );
    const check = () => {
      const match = /Herald is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`start exited early:\n${output}`));
    });
  });

  return {
    url,
    ports: { port, sandboxPort, pgPort },
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

export async function removeDataDir(dataDir: string): Promise<void> {
  // Retries cover a cluster that is still removing its files as the last process exits.
  await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/** Every process below `pid`, read from /proc (Linux). */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  const visit = (parent: number) => {
    const taskDir = `/proc/${parent}/task`;
    if (!existsSync(taskDir)) return;
    for (const task of readdirSync(taskDir)) {
      const file = `${taskDir}/${task}/children`;
      if (!existsSync(file)) continue;
      for (const child of readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number)) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** Alive means present in /proc and not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}
