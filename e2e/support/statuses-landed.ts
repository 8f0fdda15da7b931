import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createPool } from '../../apps/server/src/db/pool';
import { assertNoStatusBehind } from '../../test-support/status-invariant';
import type { Stack } from './stack';

/**
 * Fails when a message row of the stack's database stands below a status Herald processed for it (decision
 * 068): run before a stack stops, so every browser test that sends also proves no status was lost. It reads
 * the database owner's password from the stack's DATA_DIR/secrets.json, as `npm start` keeps it.
 */
export async function assertStatusesLanded(stack: Stack): Promise<void> {
  if (stack.process.exitCode !== null || stack.process.signalCode !== null) return;
  const secrets = JSON.parse(await readFile(path.join(stack.dataDir, 'secrets.json'), 'utf8')) as {
    EMBEDDED_PG_OWNER_PASSWORD: string;
  };
  const url = new URL(`postgres://127.0.0.1:${stack.ports.pgPort}/herald`);
  url.username = 'herald';
  url.password = encodeURIComponent(secrets.EMBEDDED_PG_OWNER_PASSWORD);
  const pool = createPool(url.toString(), 1);
  try {
    await assertNoStatusBehind(pool);
  } finally {
    await pool.end();
  }
}
