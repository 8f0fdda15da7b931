import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, isAlive, removeDataDir, startStack, type Stack } from './support/stack';

let dataDir: string | undefined;
let stack: Stack | undefined;

afterAll(async () => {
  await stack?.stop();
  if (dataDir) await removeDataDir(dataDir);
});

describe('npm start', () => {
  it('serves the app and /healthz, and SIGINT stops every process within 5 s', async () => {
    stack = await startStack();
    dataDir = stack.dataDir;
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);

    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${stack.url}/readyz`);
    expect(await ready.json()).toMatchObject({ status: 'ok', database: 'up', migrations: 'current' });

    const page = await fetch(`${stack.url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const sandbox = await fetch(`${stack.sandboxUrl}/__sandbox/state`);
    expect(sandbox.status).toBe(200);

    const rootPid = stack.process.pid!;
    const tree = [rootPid, ...descendants(rootPid)];
    // start.mjs, the supervisor, postgres (several), sandbox, server and worker.
    expect(tree.length).toBeGreaterThanOrEqual(6);

    const signalledAt = Date.now();
    await stack.stop();
    const deadline = signalledAt + 5_000;
    while (tree.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tree.filter(isAlive)).toEqual([]);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    stack = undefined;
  });

  it('a second start reuses ./data and keeps what the first one stored', async () => {
    stack = await startStack({ dataDir: dataDir! });
    const health = await fetch(`${stack.url}/healthz`);
    expect(health.status).toBe(200);
    // A new cluster would need its migrations applied; the reused one is already at the latest version.
    expect(stack.output()).not.toContain('Applied migrations');
    await stack.stop();
    stack = undefined;
  });
});
