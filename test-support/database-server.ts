import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';

// What the integration suite's global setup hands to every test file (see database-global-setup.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    databaseAdminUrl: string;
    databaseTemplate: string;
  }
}

export interface DatabaseServer {
  /** A URL of a database on that server with rights to create and drop databases. */
  adminUrl: string;
  source: 'DATABASE_URL' | 'local server' | 'embedded';
  stop(): Promise<void>;
}

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** DATABASE_URL when set, else the machine's server on 127.0.0.1:5432 when it answers, else an embedded one. */
export async function openDatabaseServer(): Promise<DatabaseServer> {
  if (process.env.DATABASE_URL) {
    return { adminUrl: process.env.DATABASE_URL, source: 'DATABASE_URL', stop: async () => undefined };
  }
  if (await canConnect(LOCAL_URL)) {
    return { adminUrl: LOCAL_URL, source: 'local server', stop: async () => undefined };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-test-pg-'));
  const cluster = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    ownerPassword: randomBytes(24).toString('base64url'),
  });
  return {
    adminUrl: cluster.url,
    source: 'embedded',
    stop: async () => {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface ScratchDatabase {
  url: string;
  /** Where the server came from, for a bench's figures. */
  source: DatabaseServer['source'];
  /** Drops the database and lets go of its server (stops an embedded one). */
  drop(): Promise<void>;
}

/**
 * An empty database named `name` (unmigrated: a bench migrates it, or `herald migrate` does) on the server
 * openDatabaseServer finds, for code that runs outside the integration suite's setup (the benches).
 */
export async function createScratchDatabase(name: string): Promise<ScratchDatabase> {
  const server = await openDatabaseServer();
  await adminQuery(server.adminUrl, `create database ${name}`);
  return {
    url: withDatabase(server.adminUrl, name),
    source: server.source,
    async drop() {
      await adminQuery(server.adminUrl, `drop database if exists ${name} with (force)`).catch(
        () => undefined,
      );
      await server.stop();
    },
  };
}
