import pg from 'pg';

export type Pool = pg.Pool;

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Connects once and runs `select 1`, so a bad DATABASE_URL fails fast with the driver's reason. */
export async function assertDatabaseReachable(connectionString: string, timeoutMs = 5_000): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
