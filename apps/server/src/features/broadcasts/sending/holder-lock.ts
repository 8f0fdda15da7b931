import pg from 'pg';
import { backoffMs } from '../../../db/backoff';
import type { Pool } from '../../../db/pool';
import type { EngineLog } from './engine-log';

/** Waits between tries to take the lock again after its connection was lost (a database restart). */
const RELOCK_BACKOFF = { first: 100, max: 1_000 };

/**
 * The advisory lock key of a lease holder, as SQL: the same on every side that names the holder. 64 bits, so
 * two live holders never share one; a single-bigint key (objsubid 1 in pg_locks).
 */
const lockKey = (holder: string) => `hashtextextended(${holder}, 0)`;

/**
 * Whether the lease holder named by the SQL expression `holder` is alive (decision 069): its engine holds a
 * session advisory lock keyed by its name on a connection of its own for its whole life, and Postgres drops
 * that lock the moment the connection closes, a killed process's included. A database that started less than
 * `graceSeconds` ago (a restart dropped every lock) counts every holder alive: a live one takes its lock back
 * within a second or so, and until then only a lease's expiry tells the dead, as before.
 */
export function holderAlive(holder: string, graceSeconds: string): string {
  const key = lockKey(holder);
  return `(pg_postmaster_start_time() > now() - make_interval(secs => ${graceSeconds})
     or exists (select 1 from pg_locks l
                 where l.locktype = 'advisory' and l.granted and l.objsubid = 1
                   and l.database = (select oid from pg_database where datname = current_database())
                   and l.classid::bigint = (${key} >> 32) & 4294967295
                   and l.objid::bigint = ${key} & 4294967295))`;
}

/**
 * Holds this engine's liveness lock (holderAlive) on a dedicated connection, and takes it again whenever the
 * connection is lost while the engine runs. Not a lease itself: the lease row still says who sends a number,
 * and marks check that row, so a holder that lost its lock while alive can lose a number but never send a row
 * its successor took (request-marks.ts).
 */
export class HolderLock {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private locked = false;

  constructor(
    private readonly pool: Pool,
    private readonly holder: string,
    private readonly log?: EngineLog,
  ) {}

  /** True while the lock is held (the engine takes new numbers only then: without it they would be taken back). */
  get held(): boolean {
    return this.locked;
  }

  /** Takes the lock if it is not held, waiting for that one try; false when it could not be taken now. */
  async hold(): Promise<boolean> {
    if (this.locked || this.stopped) return this.locked;
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    await this.connecting;
    return this.locked;
  }

  /** Releases the lock (its connection closes): call after the engine gave its leases up. */
  async release(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.connecting;
    this.locked = false;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { connectionString, host, port, user, password, database, ssl } = this.pool.options;
    const client = new pg.Client({
      connectionString,
      host,
      port,
      user,
      password,
      database,
      ssl,
      connectionTimeoutMillis: 5_000,
    });
    let lost = false;
    const onLost = (error: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.locked = false;
      void client.end().catch(() => undefined);
      if (!this.stopped) {
        this.log?.error({ err: error }, 'sender liveness lock lost; taking it again');
        this.relockLater();
      }
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    try {
      await client.connect();
      const { rows } = await client.query<{ locked: boolean }>(
        `select pg_try_advisory_lock(${lockKey('$1')}) as locked`,
        [this.holder],
      );
      if (this.stopped) return void (await client.end().catch(() => undefined));
      if (!rows[0]?.locked) throw new Error(`the liveness lock of ${this.holder} is held elsewhere`);
      this.client = client;
      this.locked = true;
      this.failures = 0;
    } catch (error) {
      onLost(error as Error);
    }
  }

  private relockLater(): void {
    if (this.retry || this.stopped) return;
    this.failures += 1;
    this.retry = setTimeout(
      () => {
        this.retry = undefined;
        void this.hold();
      },
      backoffMs(this.failures, RELOCK_BACKOFF),
    );
    // A test that never stops its engine must still be able to end.
    this.retry.unref();
  }
}
