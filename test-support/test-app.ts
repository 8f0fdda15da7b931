import type { FastifyInstance } from 'fastify';
import { startSandbox } from '@herald/cloud-sim';
import { buildApp } from '../apps/server/src/app';
import type { Config } from '../apps/server/src/config';
import { assertNoStatusBehind } from './status-invariant';
import { testConfig } from './test-config';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  /** The sandbox Cloud API the app talks to over real HTTP. */
  sandboxUrl: string;
  close(): Promise<void>;
}

/** The whole API on a fresh database, wired to a real sandbox Cloud API listening on a free port. */
export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  // Sign-up tests check the PIN and code Herald handed the sandbox; this in-process switch is the only way
  // /__sandbox/state shows them (masked for every other caller).
  const sandbox = await startSandbox({ port: 0, revealSecretsInState: true });
  const config = testConfig({ GRAPH_API_BASE: sandbox.url, WEB_DIST_DIR: '/nonexistent', ...overrides });
  const app = await buildApp({ config, pool: db.pool, logger: false });
  await app.ready();
  return {
    app,
    db,
    config,
    sandboxUrl: sandbox.url,
    async close() {
      await app.close();
      await sandbox.close();
      // After the app's last webhook batch, before the database goes: no status the test sent was lost.
      try {
        await assertNoStatusBehind(db.pool);
      } finally {
        await db.drop();
      }
    },
  };
}
