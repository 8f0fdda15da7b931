import path from 'node:path';
import pg from 'pg';
import Postgrator from 'postgrator';
import { installJobSchema } from '../jobs/job-schema';

const migrationsDir = path.join(import.meta.dirname, 'migrations');
// Any constant works; it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK_KEY = 4_820_117;

export interface MigrationResult {
  applied: string[];
  version: number;
}

/**
 * Applies every pending SQL migration in `migrations/` (postgrator's NNN.do.name.sql files), each in its own
 * transaction, under an advisory lock so that concurrent starts never race; then creates or upgrades pg-boss's
 * schema and queues. Run it as the database owner: the application role has no DDL rights (decision 018).
 */
export async function migrate(connectionString: string): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const postgrator = new Postgrator({
      migrationPattern: path.join(migrationsDir, '*.sql'),
      driver: 'pg',
      schemaTable: 'schema_migrations',
      execQuery: (query) => client.query(query),
      execSqlScript: async (script) => {
        await client.query('begin');
        try {
          await client.query(script);
          await client.query('commit');
        } catch (error) {
          await client.query('rollback');
          throw error;
        }
      },
    });
    const applied = await postgrator.migrate();
    const version = Number(await postgrator.getDatabaseVersion());
    await installJobSchema(connectionString);
    return { applied: applied.map((migration) => path.basename(migration.filename)), version };
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
