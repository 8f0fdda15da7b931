import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, requireSecrets, type Config } from './config';
import { appRoleGrantsSql, createAppRoleSql, grantAppRole, migrateAndGrant } from './db/app-role';
import { startEmbeddedPostgres } from './db/embedded-postgres';
import { assertDatabaseReachable, createPool } from './db/pool';
import { buildWorkerHttp } from './features/health/worker-http';
import { startWorker } from './jobs/worker';
import { loadOrCreateLocalSecrets } from './supervisor/local-secrets';
import { stopOnSignal } from './supervisor/shutdown';
import { runStart } from './supervisor/start';

const USAGE = `usage: herald <command>
  start    everything on one machine (embedded Postgres unless DATABASE_URL, sandbox, server, worker)
  serve    the API server and the built web app on PORT
  work     the job worker
  sandbox  the sandbox Cloud API on SANDBOX_PORT
  migrate  apply pending database migrations (as DATABASE_OWNER_URL when set, then grant DATABASE_URL's role)
  grant-app-role <role> [--print]
           grant <role> what the app needs (as DATABASE_OWNER_URL, else DATABASE_URL); --print only prints the SQL`;

class StartupError extends Error {}

/** How long SIGTERM waits for requests in flight (API) or the batch in flight (worker) before exiting anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Opens the worker's probe and metrics port. WORKER_PORT set explicitly must be served (else the start fails);
 * the default port already taken (a second worker on one machine) only costs this worker its probes.
 */
async function listenForProbes(
  http: Awaited<ReturnType<typeof buildWorkerHttp>>,
  config: Config,
): Promise<string | undefined> {
  try {
    return await http.listen(config.HOST, config.WORKER_PORT);
  } catch (error) {
    const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    if (!inUse || process.env.WORKER_PORT) {
      throw new StartupError(`WORKER_PORT ${config.WORKER_PORT}: ${(error as Error).message}`);
    }
    http.log.warn(
      `WORKER_PORT ${config.WORKER_PORT} is in use: this worker serves no /healthz, /readyz or /metrics (set WORKER_PORT)`,
    );
    return undefined;
  }
}

const ready = (details: Record<string, unknown> = {}) => process.send?.({ type: 'ready', ...details });

async function requireDatabase(config: Config): Promise<string> {
  const url = config.DATABASE_URL;
  if (!url) throw new StartupError('DATABASE_URL is not set (only `herald start` runs an embedded database)');
  try {
    await assertDatabaseReachable(url);
  } catch (error) {
    throw new StartupError(`DATABASE_URL is unreachable: ${(error as Error).message || String(error)}`);
  }
  return url;
}

/** The URL migrations and grants run with: the schema owner's when DATABASE_OWNER_URL is set. */
async function requireOwnerDatabase(config: Config): Promise<string> {
  if (!config.DATABASE_OWNER_URL) return requireDatabase(config);
  try {
    await assertDatabaseReachable(config.DATABASE_OWNER_URL);
  } catch (error) {
    throw new StartupError(`DATABASE_OWNER_URL is unreachable: ${(error as Error).message || String(error)}`);
  }
  return config.DATABASE_OWNER_URL;
}

const commands: Record<string, (config: Config) => Promise<void>> = {
  async start(config) {
    if (config.DATABASE_URL) await requireDatabase(config);
    if (config.DATABASE_OWNER_URL) await requireOwnerDatabase(config);
    await runStart(config, process.env);
  },

  async serve(config) {
    await requireDatabase(config);
    const pool = createPool(config.DATABASE_URL!);
    const app = await buildApp({ config, pool });
    await app.listen({ host: config.HOST, port: config.PORT });
    // SIGTERM: stop accepting, let the requests in flight finish (idle keep-alive sockets close at once,
    // a new request on a busy one is answered 503), then exit.
    stopOnSignal(async () => {
      await app.close();
      await pool.end();
    }, SHUTDOWN_GRACE_MS);
    ready({ port: config.PORT });
  },

  async work(config) {
    const databaseUrl = await requireDatabase(config);
    const pool = createPool(databaseUrl, 4);
    const { encryptionKey } = requireSecrets(config);
    const http = await buildWorkerHttp({
      pool,
      logLevel: config.LOG_LEVEL,
      metricsToken: config.METRICS_TOKEN,
    });
    const httpUrl = await listenForProbes(http, config);
    const worker = await startWorker({
      databaseUrl,
      pool,
      onError: (error) => http.log.error(error.message),
      onInfo: (message) => http.log.info(message),
      broadcasts: {
        graphApiBase: config.graphApiBase,
        graphVersion: config.GRAPH_API_VERSION,
        encryptionKey,
        leaseSeconds: config.SENDER_LEASE_SECONDS,
        unconfirmedTimeoutSeconds: config.MESSAGE_OUTCOME_TIMEOUT_SECONDS,
        marketingLimitRetries: config.MARKETING_LIMIT_RETRIES,
        rateCardFile: config.RATE_CARD_FILE,
      },
      mail: { smtpUrl: config.SMTP_URL, from: config.SMTP_FROM },
    });
    // SIGTERM: the batch in flight is finished and its results written, the numbers' leases are released and
    // the other workers woken (worker.stop), then the probes go and the process exits.
    stopOnSignal(async () => {
      await worker.stop();
      await http.close();
      await pool.end();
    }, SHUTDOWN_GRACE_MS);
    http.log.info(
      httpUrl ? `worker started; /healthz, /readyz and /metrics on ${httpUrl}` : 'worker started',
    );
    ready(httpUrl ? { url: httpUrl } : {});
  },

  async sandbox(config) {
    // Loaded here so that the server and worker processes never load the sandbox's code.
    const { startSandbox } = await import('@herald/cloud-sim');
    const sandbox = await startSandbox({
      port: config.SANDBOX_PORT,
      host: '127.0.0.1',
      appId: config.META_APP_ID,
      appSecret: config.META_APP_SECRET,
      logFile: path.join(config.dataDir, 'sandbox', 'calls.jsonl'),
      // Template reviews (and later message statuses) come back to Herald as signed webhooks.
      reviewDelayMs: config.SANDBOX_REVIEW_DELAY_MS,
      // Meta's sending rules as tests want them (defaults: TIER_250, US marketing pause on).
      defaultMessagingLimit: config.SANDBOX_DEFAULT_MESSAGING_LIMIT,
      usMarketingRule:
        config.SANDBOX_US_MARKETING_RULE === undefined
          ? undefined
          : config.SANDBOX_US_MARKETING_RULE === 'true',
      webhookUrl: process.env.SANDBOX_WEBHOOK_URL ?? `http://127.0.0.1:${config.PORT}/webhooks/whatsapp`,
    });
    stopOnSignal(() => sandbox.close());
    console.log(`sandbox listening on ${sandbox.url}`);
    ready({ url: sandbox.url });
  },

  async migrate(config) {
    const result = await migrateAndGrant(await requireOwnerDatabase(config), config.DATABASE_URL);
    console.log(
      result.applied.length
        ? `applied ${result.applied.join(', ')}; schema version ${result.version}`
        : `nothing to apply; schema version ${result.version}`,
    );
    if (result.grantedTo) console.log(`granted ${result.grantedTo} what the app needs`);
  },

  async 'grant-app-role'(config) {
    const [role, flag] = process.argv.slice(3);
    if (!role || (flag !== undefined && flag !== '--print')) {
      throw new StartupError('usage: herald grant-app-role <role> [--print]');
    }
    if (flag === '--print') {
      const url = config.DATABASE_OWNER_URL ?? config.DATABASE_URL;
      const database = url ? decodeURIComponent(new URL(url).pathname.slice(1)) : 'herald';
      process.stdout.write(`${createAppRoleSql(role)}\n${appRoleGrantsSql({ role, database })}`);
      return;
    }
    await grantAppRole(await requireOwnerDatabase(config), role);
    console.log(`granted ${role} what the app needs`);
  },

  /** Internal: the embedded cluster, run as a child of `start` so it is stopped last and never orphaned. */
  async db(config) {
    // `start` made or completed secrets.json before spawning this process, so this only reads it.
    const { EMBEDDED_PG_OWNER_PASSWORD } = loadOrCreateLocalSecrets(config.dataDir);
    const cluster = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.EMBEDDED_PG_PORT,
      ownerPassword: EMBEDDED_PG_OWNER_PASSWORD,
      onNotice: (line) => console.log(line),
    });
    let stopping = false;
    stopOnSignal(() => {
      stopping = true;
      return cluster.stop();
    });
    // A crashed server must not leave this process up and silent: exiting lets `start` restart the cluster.
    cluster.onExit((code) => {
      if (stopping) return;
      console.error(`herald: the postgres server process exited (${code ?? 'signal'}); stopping`);
      process.exit(1);
    });
    ready({ url: cluster.url });
  },
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(USAGE);
    process.exit(name ? 2 : 0);
  }
  try {
    await command(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupError) {
      console.error(`herald: ${error.message}`);
    } else {
      console.error(`herald: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    process.exit(1);
  }
}

void main();
