import { startSandbox } from '@herald/cloud-sim';
import { buildApp } from '../apps/server/src/app';
import { createPool } from '../apps/server/src/db/pool';
import type { TestApp } from './test-app';
import { assertNoStatusBehind } from './status-invariant';
import { testConfig } from './test-config';

/**
 * Like startTestApp, but on a migrated database the test brought itself (a cluster it starts and restarts):
 * the app, a real sandbox Cloud API, and a pool on `url` that close() ends (the database stays).
 */
export async function startTestAppOnDatabase(
  url: string,
  overrides: Record<string, string> = {},
): Promise<TestApp> {
  const pool = createPool(url, 5, () => undefined);
  const sandbox = await startSandbox({ port: 0 });
  const config = testConfig({ GRAPH_API_BASE: sandbox.url, WEB_DIST_DIR: '/nonexistent', ...overrides });
  const app = await buildApp({ config, pool, logger: false });
  await app.ready();
  return {
    app,
    db: { url, pool, drop: () => pool.end() },
    config,
    sandboxUrl: sandbox.url,
    async close() {
      await app.close();
      await sandbox.close();
      // After the app's last webhook batch, while the database is still there: no status was lost.
      try {
        await assertNoStatusBehind(pool);
      } finally {
        await pool.end();
      }
    },
  };
}
