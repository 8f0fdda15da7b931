import path from 'node:path';
import type { Config } from '../config';
import { EMBEDDED_APP_ROLE, ensureAppRole, migrateAndGrant } from '../db/app-role';
import { migrate } from '../db/migrate';
import { serverCli } from '../paths';
import { spawnChild } from './child';
import { appSecretsFrom, type LocalSecrets, loadOrCreateLocalSecrets } from './local-secrets';
import { keepRunning, type RestartingChild } from './restarting-child';
import { buildWeb, webBuildIsStale } from './web-build';

const write = (line: string) => process.stdout.write(`${line}\n`);

/**
 * `herald start`: everything on one machine. An embedded Postgres (unless DATABASE_URL is set), migrations as
 * the database owner, a fresh web build when sources changed, then the sandbox Cloud API, the API server and
 * the worker, each its own process; the server and worker connect as the least-privilege application role
 * (decision 018). A child that exits on its own after it was ready is restarted with a back-off (decision 021);
 * SIGINT/SIGTERM stop the server and worker first, then the sandbox, and the database last.
 */
export async function runStart(config: Config, env: NodeJS.ProcessEnv): Promise<void> {
  let database: RestartingChild | undefined;
  const services: RestartingChild[] = [];
  let stopping = false;
  /** Where the worker serves /healthz, /readyz and /metrics; none when its port was taken (decision 044). */
  let workerUrl: string | undefined;

  const shutdown = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    write('Stopping Herald…');
    // The server and worker first: a message the worker has in flight must still reach the sandbox, which
    // stops next; the database last.
    const sandboxLast = (last: boolean) => services.filter((child) => (child.name === 'sandbox') === last);
    await Promise.all(sandboxLast(false).map((child) => child.stop(2_500)));
    await Promise.all(sandboxLast(true).map((child) => child.stop(2_500)));
    await database?.stop(1_500);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    let localSecrets: LocalSecrets | undefined;
    let databaseUrl: string;
    if (config.DATABASE_URL) {
      const ownerUrl = config.DATABASE_OWNER_URL ?? config.DATABASE_URL;
      const migration = await migrateAndGrant(ownerUrl, config.DATABASE_URL);
      if (migration.applied.length > 0) write(`Applied migrations: ${migration.applied.join(', ')}`);
      databaseUrl = config.DATABASE_URL;
    } else {
      // Made (or completed) before the database child starts: it reads the owner's password from the file.
      localSecrets = loadOrCreateLocalSecrets(config.dataDir);
      database = keepRunning({
        name: 'postgres',
        spawn: () => spawnChild('postgres', serverCli, ['db'], env, write),
        write,
      });
      const ownerUrl = (await database.ready<{ url: string }>()).url;
      const migration = await migrate(ownerUrl);
      if (migration.applied.length > 0) write(`Applied migrations: ${migration.applied.join(', ')}`);
      databaseUrl = await ensureAppRole(ownerUrl, EMBEDDED_APP_ROLE, localSecrets.EMBEDDED_PG_APP_PASSWORD);
    }

    if (webBuildIsStale(config.webDistDir)) {
      write('Building the web app (sources changed or no build yet)…');
      await buildWeb(config.webDistDir, write);
    }

    const secrets =
      config.JWT_SECRET && config.ENCRYPTION_KEY
        ? {}
        : appSecretsFrom(localSecrets ?? loadOrCreateLocalSecrets(config.dataDir));
    const childEnv = appProcessEnv(env, { secrets, databaseUrl, graphApiBase: config.graphApiBase });
    const start = async (name: string, command: string) => {
      const child = keepRunning({
        name,
        spawn: () => spawnChild(name, serverCli, [command], childEnv, write),
        write,
      });
      services.push(child);
      return child.ready<{ url?: string }>();
    };
    await start('sandbox', 'sandbox');
    const [, worker] = await Promise.all([start('server', 'serve'), start('worker', 'work')]);
    workerUrl = worker.url;
  } catch (error) {
    write(`herald: could not start: ${(error as Error).message}`);
    await shutdown(1);
    return;
  }

  const url = `http://${config.HOST}:${config.PORT}`;
  write('');
  write(`Herald is running at ${url}`);
  write(`  API docs          ${url}/docs`);
  write(
    `  Health, metrics   ${url}/readyz, ${url}/metrics${workerUrl ? ` (worker: ${workerUrl}/metrics)` : ''}`,
  );
  write(
    `  Sandbox Cloud API http://127.0.0.1:${config.SANDBOX_PORT}  (Embedded Signup demo: no Meta account needed)`,
  );
  write(
    config.DATABASE_URL
      ? '  Database          DATABASE_URL'
      : `  Database          embedded PostgreSQL in ${path.join(config.dataDir, 'postgres')} (port ${config.EMBEDDED_PG_PORT}, app role ${EMBEDDED_APP_ROLE})`,
  );
  write(
    `  Ports: PORT=${config.PORT} SANDBOX_PORT=${config.SANDBOX_PORT} (set them to change). Ctrl-C stops everything.`,
  );
}

/**
 * The environment of the sandbox, server and worker: the app role's DATABASE_URL, the file's JWT_SECRET and
 * ENCRYPTION_KEY unless the environment sets them, and never the owner's URL or the database passwords.
 */
export function appProcessEnv(
  env: NodeJS.ProcessEnv,
  options: { secrets: Record<string, string>; databaseUrl: string; graphApiBase: string },
): NodeJS.ProcessEnv {
  const { DATABASE_OWNER_URL: _ownerUrl, ...appEnv } = env;
  return {
    ...options.secrets,
    ...appEnv,
    DATABASE_URL: options.databaseUrl,
    GRAPH_API_BASE: options.graphApiBase,
  };
}
