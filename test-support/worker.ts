import { type ChildProcess, spawn } from 'node:child_process';
import { createPool, type Pool } from '../apps/server/src/db/pool';
import { startWorker, type Worker } from '../apps/server/src/jobs/worker';
import { type NodeProcess, repoRoot, serverCli, startNode, testAppEnv } from './processes';
import type { TestApp } from './test-app';

// The one way tests start the worker: in this process (startTestWorker) or as `herald work` (spawnTestWorker),
// with the same option names for both. Only a test whose subject is the worker's own start or exit calls
// startWorker or spawns `herald work` itself. docs/testing.md lists which helper starts what.

/** The parts of a test app a worker runs against: startTestApp's, or one a test put together. */
export type WorkerTarget = Pick<TestApp, 'db' | 'sandboxUrl' | 'config'>;

export interface TestWorkerOptions {
  /** Database, sandbox and keys of this test app; each may be overridden below. */
  app?: WorkerTarget;
  /** Another database than the app's: a cluster the test restarts, the application role's URL. */
  databaseUrl?: string;
  /** The Graph API version broadcasts are sent with; the app's configured one (in a process: its default). */
  graphVersion?: string;
  /** The sender's lease on a number (SENDER_LEASE_SECONDS); production's when not given. */
  leaseSeconds?: number;
  /** How long a send stays unconfirmed (MESSAGE_OUTCOME_TIMEOUT_SECONDS); production's when not given. */
  unconfirmedTimeoutSeconds?: number;
}

/**
 * A 2 s lease and a 5 s outcome timeout, for tests that kill or stop workers mid-broadcast: another worker
 * takes the number over quickly and the unconfirmed sends end within the test.
 */
export const QUICK_TAKEOVER = { leaseSeconds: 2, unconfirmedTimeoutSeconds: 5 } as const;

export interface InProcessWorkerOptions extends TestWorkerOptions {
  /** The pool the jobs use; without one the worker opens its own (of 4, as `herald work` does), ended by stop(). */
  pool?: Pool;
  /** Runs the broadcast engine, sending to the app's sandbox (`herald work` always does). */
  broadcasts?: boolean;
  onError?: (error: Error) => void;
  onInfo?: (message: string) => void;
  mail?: { smtpUrl?: string; from: string };
}

export interface TestWorker extends Worker {
  pool: Pool;
}

/** The worker in this process: pg-boss, its jobs and, with `broadcasts`, the broadcast engine. */
export async function startTestWorker(options: InProcessWorkerOptions): Promise<TestWorker> {
  const { app } = options;
  const databaseUrl = options.databaseUrl ?? app?.db.url;
  if (!databaseUrl) throw new Error('startTestWorker: give an app or a databaseUrl');
  const ownPool = options.pool ? undefined : createPool(databaseUrl, 4);
  const pool = options.pool ?? ownPool!;
  let broadcasts: Parameters<typeof startWorker>[0]['broadcasts'];
  if (options.broadcasts) {
    if (!app) throw new Error('startTestWorker: broadcasts are sent to an app’s sandbox; give the app');
    broadcasts = {
      graphApiBase: app.sandboxUrl,
      graphVersion: options.graphVersion ?? app.config.GRAPH_API_VERSION,
      encryptionKey: app.config.ENCRYPTION_KEY!,
      ...(options.leaseSeconds === undefined ? {} : { leaseSeconds: options.leaseSeconds }),
      ...(options.unconfirmedTimeoutSeconds === undefined
        ? {}
        : { unconfirmedTimeoutSeconds: options.unconfirmedTimeoutSeconds }),
    };
  }
  const worker = await startWorker({
    databaseUrl,
    pool,
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.onInfo ? { onInfo: options.onInfo } : {}),
    ...(broadcasts ? { broadcasts } : {}),
    ...(options.mail ? { mail: options.mail } : {}),
  });
  return {
    boss: worker.boss,
    pool,
    async stop() {
      await worker.stop();
      await ownPool?.end();
    },
  };
}

export interface WorkerProcessOptions extends TestWorkerOptions {
  /**
   * Resolve once it has started (LOG_LEVEL info, its output kept, its probes' URL known); otherwise it is
   * returned at once, silent and its output ignored, for tests that kill it at any moment.
   */
  waitUntilStarted?: boolean;
  /** More environment, over the rest (a scenario without a test app gives it all here). */
  env?: Record<string, string>;
}

export type KillableWorkerProcess = ChildProcess & { exited: Promise<number | null> };

function workerEnv(options: WorkerProcessOptions): Record<string, string> {
  return {
    ...(options.app ? testAppEnv(options.app) : {}),
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...(options.graphVersion === undefined ? {} : { GRAPH_API_VERSION: options.graphVersion }),
    ...(options.leaseSeconds === undefined ? {} : { SENDER_LEASE_SECONDS: String(options.leaseSeconds) }),
    ...(options.unconfirmedTimeoutSeconds === undefined
      ? {}
      : { MESSAGE_OUTCOME_TIMEOUT_SECONDS: String(options.unconfirmedTimeoutSeconds) }),
    // Probes on any free port, so that several run side by side.
    WORKER_PORT: '0',
    LOG_LEVEL: options.waitUntilStarted ? 'info' : 'silent',
    ...options.env,
  };
}

/** `herald work`, the worker as production runs it. */
export function spawnTestWorker(
  options: WorkerProcessOptions & { waitUntilStarted: true },
): Promise<NodeProcess>;
export function spawnTestWorker(options: WorkerProcessOptions): KillableWorkerProcess;
export function spawnTestWorker(options: WorkerProcessOptions): Promise<NodeProcess> | KillableWorkerProcess {
  const env = workerEnv(options);
  if (options.waitUntilStarted)
    return startNode('herald work', [serverCli, 'work'], env, /worker started; .* on (http:\/\/[^\s"]+)/);
  const child = spawn(process.execPath, ['--import', 'tsx', serverCli, 'work'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return Object.assign(child, { exited });
}
