import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';
import { migrate } from '../apps/server/src/db/migrate';
import { freePort } from './database-server';
import type { TestApp } from './test-app';
import { startTestAppOnDatabase } from './test-app-on-database';

/**
 * The whole API on a migrated database of its own embedded cluster: the PostgreSQL `npm start` runs (18), for
 * the tests whose subject behaves differently there than on the suite's server. close() stops and removes it.
 */
export async function startEmbeddedTestApp(): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-embedded-app-'));
  const cluster = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    ownerPassword: randomBytes(18).toString('base64url'),
  });
  await migrate(cluster.url);
  const app = await startTestAppOnDatabase(cluster.url);
  return {
    ...app,
    async close() {
      await app.close();
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
