import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ReadinessResponse } from '@herald/contracts';
import type { Pool } from '../../db/pool';

const MIGRATIONS_DIR = path.join(import.meta.dirname, '../../db/migrations');
/** A probe answers within a few seconds or the load balancer gives up anyway: a stuck pool is "not ready". */
const CHECK_TIMEOUT_MS = 3_000;

/** The versions of the migrations this build ships (postgrator's `NNN.do.name.sql`). */
export function shippedMigrationVersions(dir = MIGRATIONS_DIR): number[] {
  return readdirSync(dir)
    .map((name) => /^(\d+)\.do\..+\.sql$/.exec(name)?.[1])
    .filter((version): version is string => version !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Readiness: the database answers and every migration this build ships is applied. The application role may
 * read only the `version` column of the ledger (app-role.ts). Migrations never go backwards, so once they are
 * seen current only the database's reachability is checked again; a database ahead of the build (a newer
 * release migrated it during a rolling upgrade) is ready: migrations are additive.
 */
export class ReadinessCheck {
  private migrationsCurrent = false;

  constructor(
    private readonly pool: Pool,
    private readonly shipped: number[] = shippedMigrationVersions(),
  ) {}

  async check(): Promise<ReadinessResponse> {
    let heartbeat: Date | null;
    try {
      heartbeat = await withTimeout(this.lastHeartbeat(), CHECK_TIMEOUT_MS);
    } catch (error) {
      return this.notReady('down', 'unknown', `database unreachable: ${(error as Error).message}`);
    }
    if (!this.migrationsCurrent) {
      let missing: number[];
      try {
        missing = await withTimeout(this.missingMigrations(), CHECK_TIMEOUT_MS);
      } catch (error) {
        return this.notReady(
          'up',
          'unknown',
          `cannot read the migration ledger (run herald migrate, which grants it): ${(error as Error).message}`,
        );
      }
      if (missing.length > 0) {
        const names = missing.map((version) => String(version).padStart(3, '0')).join(', ');
        return this.notReady('up', 'behind', `migrations not applied: ${names} (run herald migrate)`);
      }
      this.migrationsCurrent = true;
    }
    return {
      status: 'ok',
      database: 'up',
      migrations: 'current',
      reason: null,
      last_worker_heartbeat: heartbeat ? heartbeat.toISOString() : null,
    };
  }

  private async lastHeartbeat(): Promise<Date | null> {
    const { rows } = await this.pool.query<{ beat_at: Date | null }>(
      'select max(beat_at) as beat_at from worker_heartbeats',
    );
    return rows[0]?.beat_at ?? null;
  }

  private async missingMigrations(): Promise<number[]> {
    const { rows } = await this.pool.query<{ version: number }>(
      'select version::int as version from schema_migrations',
    );
    const applied = new Set(rows.map((row) => row.version));
    return this.shipped.filter((version) => !applied.has(version));
  }

  private notReady(
    database: ReadinessResponse['database'],
    migrations: ReadinessResponse['migrations'],
    reason: string,
  ): ReadinessResponse {
    return { status: 'unavailable', database, migrations, reason, last_worker_heartbeat: null };
  }
}
