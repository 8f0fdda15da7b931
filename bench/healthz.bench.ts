// Request throughput of the API shell: /readyz (a database round trip; /healthz is liveness and touches none) over a real socket, so later
// features can compare their routes with the floor the framework and pool set.
import { performance } from 'node:perf_hooks';
import { migrate } from '../apps/server/src/db/migrate';
import { startTestApp } from '../test-support/test-app';
import { createScratchDatabase } from '../test-support/database-server';

const REQUESTS = 2_000;
const CONCURRENCY = 20;

const database = await createScratchDatabase(`herald_bench_${process.pid}`);
const url = database.url;
try {
  await migrate(url);
  const t = await startTestApp({}, { database: { url, poolSize: 10 } });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        next += 1;
        const t0 = performance.now();
        const response = await fetch(`${address}/readyz`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`healthz answered ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
  console.log(
    JSON.stringify({
      benchmark: 'healthz',
      database: database.source,
      requests: latencies.length,
      concurrency: CONCURRENCY,
      requests_per_second: Math.round(latencies.length / seconds),
      p50_ms: at(0.5),
      p99_ms: at(0.99),
    }),
  );
  await t.close();
} finally {
  await database.drop();
}
