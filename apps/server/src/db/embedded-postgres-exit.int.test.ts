import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test-support/database-server';
import { startEmbeddedPostgres } from './embedded-postgres';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('an embedded cluster whose server process dies', () => {
  it('tells its owner, so `herald db` can exit and be restarted by the supervisor', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-pg-exit-'));
    dirs.push(dataDir);
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      ownerPassword: randomBytes(18).toString('base64url'),
    });
    const exited = new Promise<number | null>((resolve) => cluster.onExit(resolve));
    // The postmaster's pid is the first line of postmaster.pid: kill it as a crash would.
    const pid = Number(
      (await readFile(path.join(dataDir, 'postgres/postmaster.pid'), 'utf8')).split('\n')[0],
    );
    process.kill(pid, 'SIGKILL');
    await expect(exited).resolves.toBeNull();
    // A listener added after the exit is told at once.
    await expect(new Promise((resolve) => cluster.onExit(resolve))).resolves.toBeNull();
  }, 60_000);
});
