// The API process of bench/contacts.bench.ts: a child, so the bench can read its peak memory from /proc.
// Usage: node --import tsx bench/contacts-server.ts <database url>; prints {"api", "sandbox"} once listening.
import { startSandbox } from '@herald/cloud-sim';
import { buildApp } from '../apps/server/src/app';
import { createPool } from '../apps/server/src/db/pool';
import { testConfig } from '../test-support/test-config';

const databaseUrl = process.argv[2];
if (!databaseUrl) throw new Error('usage: contacts-server.ts <database url>');
const sandbox = await startSandbox({ port: 0 });
const pool = createPool(databaseUrl, 10);
const app = await buildApp({
  config: testConfig({
    GRAPH_API_BASE: sandbox.url,
    WEB_DIST_DIR: '/nonexistent',
    ACCESS_TOKEN_TTL_SECONDS: '86400',
  }),
  pool,
  logger: false,
});
const api = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ api, sandbox: sandbox.url }));
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => sandbox.close())
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
