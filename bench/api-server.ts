// Herald's API in a process of its own, as in production, for benchmarks that measure it from outside: the
// bench's own HTTP client then does not share the API's event loop, and its memory can be read from /proc.
// Usage: node --import tsx bench/api-server.ts <database url> [graph api base]; without a Graph API base it
// starts its own sandbox. Prints {"api", "sandbox"} once listening.
import { startSandbox } from '@herald/cloud-sim';
import { buildApp } from '../apps/server/src/app';
import { createPool } from '../apps/server/src/db/pool';
import { testConfig } from '../test-support/test-config';

const [databaseUrl, graphApiBase] = process.argv.slice(2);
if (!databaseUrl) throw new Error('usage: api-server.ts <database url> [graph api base]');
const sandbox = graphApiBase ? null : await startSandbox({ port: 0 });
const pool = createPool(databaseUrl, 10);
const app = await buildApp({
  config: testConfig({
    GRAPH_API_BASE: graphApiBase ?? sandbox!.url,
    WEB_DIST_DIR: '/nonexistent',
    ACCESS_TOKEN_TTL_SECONDS: '86400',
    // A bench that signs what the API checks (tracked links) gives both the same key.
    ...(process.env.BENCH_ENCRYPTION_KEY ? { ENCRYPTION_KEY: process.env.BENCH_ENCRYPTION_KEY } : {}),
  }),
  pool,
  logger: false,
});
const api = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(JSON.stringify({ api, sandbox: graphApiBase ?? sandbox!.url }));
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => sandbox?.close())
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
