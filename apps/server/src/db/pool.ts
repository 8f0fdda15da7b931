import pg from 'pg';

export type Pool = pg.Pool;

/** Where a lost connection is reported: a warning, never a crash (decision 021). */
export type ConnectionWarning = (error: Error, where: string) => void;

const warnOnConsole: ConnectionWarning = (error, where) =>
  console.warn(`database connection lost (${where}): ${error.message}`);

export function createPool(
  connectionString: string,
  max = 10,
  onConnectionError: ConnectionWarning = warnOnConsole,
): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  keepConnectionErrorsFromCrashing(pool, onConnectionError);
  return pool;
}

/**
 * A pg client emits 'error' when its server goes away (a restart's 57P01, a reset socket), and an 'error'
 * event without a listener kills the process. The pool listens on its idle clients only; a client checked
 * out for a transaction, a COPY or a long job has no listener, so every client gets one of its own here.
 * The query in flight still fails (the caller sees it); the pool drops the broken client on release.
 */
export function keepConnectionErrorsFromCrashing(pool: pg.Pool, warn: ConnectionWarning): void {
  // The pool re-emits an idle client's error; the client's own listener below has already warned.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', (error) => warn(error, 'pool client'));
  });
}

/** Connects once and runs `select 1`, so a bad DATABASE_URL fails fast with the driver's reason. */
export async function assertDatabaseReachable(connectionString: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  // A connection that fails after connecting (a restart mid-check) must reject the check, not crash.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
