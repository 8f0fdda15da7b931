import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startSandbox } from '@herald/cloud-sim';
import { buildApp } from '../apps/server/src/app';
import type { Config } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';
import { migrate } from '../apps/server/src/db/migrate';
import { createPool } from '../apps/server/src/db/pool';
import { freePort } from './database-server';
import { assertNoStatusBehind } from './status-invariant';
import { TEST_PORTFOLIO_TIER, testConfig } from './test-config';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  /** The sandbox Cloud API the app talks to over real HTTP. */
  sandboxUrl: string;
  close(): Promise<void>;
}

/**
 * Which database the app runs on:
 *  - 'clone' (the default): a fresh clone of the integration run's migrated template, dropped by close();
 *  - 'embedded': a migrated database of its own embedded cluster, the PostgreSQL `npm start` runs (18), for the
 *    tests whose subject behaves differently there than on the suite's server; close() stops and removes it;
 *  - { url }: a migrated database the caller brought (a cluster it starts and restarts, a bench's database);
 *    close() ends the app's pool (of `poolSize` connections, 5 unless given) and leaves the database.
 */
export type TestAppDatabase = 'clone' | 'embedded' | { url: string; poolSize?: number };

/** The one in-process database a test app runs on, and how to let go of it. */
async function openDatabase(database: TestAppDatabase): Promise<TestDatabase> {
  if (database === 'clone') return createTestDatabase();
  if (database !== 'embedded') {
    const pool = createPool(database.url, database.poolSize ?? 5, () => undefined);
    return { url: database.url, pool, drop: () => pool.end() };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-embedded-app-'));
  const cluster = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    ownerPassword: randomBytes(18).toString('base64url'),
  });
  await migrate(cluster.url);
  const pool = createPool(cluster.url, 5, () => undefined);
  return {
    url: cluster.url,
    pool,
    async drop() {
      await pool.end();
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The whole API in this process, wired to a real sandbox Cloud API listening on a free port, on a fresh
 * database unless `options.database` says otherwise. `overrides` are configuration settings.
 */
export async function startTestApp(
  overrides: Record<string, string> = {},
  options: { database?: TestAppDatabase } = {},
): Promise<TestApp> {
  const db = await openDatabase(options.database ?? 'clone');
  // Sign-up tests check the PIN and code Herald handed the sandbox; this in-process switch is the only way
  // /__sandbox/state shows them (masked for every other caller).
  const sandbox = await startSandbox({
    port: 0,
    revealSecretsInState: true,
    defaultMessagingLimit: TEST_PORTFOLIO_TIER,
  });
  const config = testConfig({ GRAPH_API_BASE: sandbox.url, WEB_DIST_DIR: '/nonexistent', ...overrides });
  const app = await buildApp({ config, pool: db.pool, logger: false });
  await app.ready();
  return {
    app,
    db,
    config,
    sandboxUrl: sandbox.url,
    async close() {
      // A close that takes long says which step it waits on and what the pool holds, so a hang names itself.
      let step = 'the app';
      const watchdog = setInterval(() => {
        const { totalCount, idleCount, waitingCount } = db.pool;
        app.server.getConnections((_error, connections) =>
          console.error(
            `test app close still waiting on ${step}: pool ${totalCount} open, ${idleCount} idle, ${waitingCount} waiting; ${connections} connections to the app`,
          ),
        );
      }, 15_000);
      // The sandbox's webhook sender may hold keep-alive connections to a closing app (a test that ends while
      // statuses still flow): after a grace period they are cut, as a supervisor's shutdown would.
      const cut = setTimeout(() => app.server.closeAllConnections(), 5_000);
      try {
        await app.close();
        clearTimeout(cut);
        step = 'the sandbox';
        await sandbox.close();
        // After the app's last webhook batch, before the database goes: no status the test sent was lost.
        step = 'the status check';
        try {
          await assertNoStatusBehind(db.pool);
        } finally {
          step = 'the database drop';
          await db.drop();
        }
      } finally {
        clearTimeout(cut);
        clearInterval(watchdog);
      }
    },
  };
}

/**
 * Makes the app listen on a free port (once) and points the sandbox's webhooks at it, with any other sandbox
 * settings in `sandboxConfig`: what a test needs for template reviews and message statuses to come back.
 * Answers the app's address.
 */
export async function listenForWebhooks(
  t: Pick<TestApp, 'app' | 'sandboxUrl'>,
  sandboxConfig: object = {},
): Promise<string> {
  const address = t.app.server.listening
    ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
    : await t.app.listen({ host: '127.0.0.1', port: 0 });
  const response = await fetch(`${t.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${address}/webhooks/whatsapp`, ...sandboxConfig }),
  });
  if (response.status >= 300) throw new Error(`sandbox config: ${response.status} ${await response.text()}`);
  return address;
}
