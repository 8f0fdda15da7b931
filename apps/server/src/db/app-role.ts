import pg from 'pg';
import { JOB_SCHEMA } from '../jobs/job-schema';
import { migrate, type MigrationResult } from './migrate';

/** The application role `herald start` creates in its embedded cluster. */
export const EMBEDDED_APP_ROLE = 'herald_app';

/** Herald's tables (public) and pg-boss's (JOB_SCHEMA): the app reads and writes rows in both. */
const APP_SCHEMAS = ['public', JOB_SCHEMA];

const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** A role or database name as a quoted SQL identifier, refusing anything but plain lower-case names. */
function identifier(name: string, what: string): string {
  if (!ROLE_NAME.test(name))
    throw new Error(`${what} must be a lower-case SQL name (got ${JSON.stringify(name)})`);
  return `"${name}"`;
}

/** The role's attributes: it logs in and nothing else (no superuser, no roles, no databases, no RLS bypass). */
const ROLE_ATTRIBUTES = 'login nosuperuser nocreatedb nocreaterole noreplication nobypassrls';

/**
 * The one SQL text that gives an application role exactly what Herald needs, run by the role that owns the
 * schema (the one that runs migrations). Applied by `herald start`, by `herald migrate` when
 * DATABASE_OWNER_URL is set, and printed by `herald grant-app-role <role> --print` for docs/production.md.
 * Idempotent: safe to run again after every migration.
 */
export function appRoleGrantsSql(options: { role: string; database: string }): string {
  const role = identifier(options.role, 'the application role');
  const database = identifier(options.database, 'the database name');
  const schemas = APP_SCHEMAS.join(', ');
  return `-- Herald's application role: reads and writes rows, never changes the schema.
-- TEMPORARY: the contact import stages each chunk in temp tables (dropped at commit).
grant connect, temporary on database ${database} to ${role};
-- Postgres 14 and older let every role create tables in public; from 15 on this changes nothing.
revoke create on schema public from public;
grant usage on schema ${schemas} to ${role};
grant select, insert, update, delete on all tables in schema ${schemas} to ${role};
-- The migration ledger is the owner's alone.
revoke all on table public.schema_migrations from ${role};
-- …but for the versions applied, which /readyz compares with the build's (decision 044).
grant select (version) on table public.schema_migrations to ${role};
-- USAGE lets inserts draw ids (nextval), as the import does when it reserves ids per chunk.
grant usage, select on all sequences in schema ${schemas} to ${role};
grant execute on all functions in schema ${schemas} to ${role};
-- Tables, sequences and functions that later migrations create (as the role running this) are covered too.
alter default privileges in schema ${schemas} grant select, insert, update, delete on tables to ${role};
alter default privileges in schema ${schemas} grant usage, select on sequences to ${role};
alter default privileges in schema ${schemas} grant execute on functions to ${role};
`;
}

/** The statement docs/production.md asks a DBA to run once; the password is theirs to choose. */
export function createAppRoleSql(role: string, password = '<a long random password>'): string {
  return `create role ${identifier(role, 'the application role')} with ${ROLE_ATTRIBUTES} password '${password.replaceAll("'", "''")}';\n`;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Applies appRoleGrantsSql to the database of `ownerUrl`, connected as the owner. */
export async function grantAppRole(ownerUrl: string, role: string): Promise<void> {
  const database = decodeURIComponent(new URL(ownerUrl).pathname.slice(1));
  await withClient(ownerUrl, (client) => client.query(appRoleGrantsSql({ role, database })));
}

/**
 * Creates the application role when missing, (re)sets its attributes and password, and grants it what Herald
 * needs on the database of `ownerUrl`. Returns the URL the server and worker connect with.
 */
export async function ensureAppRole(ownerUrl: string, role: string, password: string): Promise<string> {
  const name = identifier(role, 'the application role');
  await withClient(ownerUrl, async (client) => {
    const found = await client.query('select 1 from pg_roles where rolname = $1', [role]);
    if (found.rowCount === 0) await client.query(`create role ${name}`);
    // Always: a role made by hand (or a password changed in secrets.json) ends up as Herald expects.
    await client.query(
      `alter role ${name} with ${ROLE_ATTRIBUTES} password ${client.escapeLiteral(password)}`,
    );
  });
  await grantAppRole(ownerUrl, role);
  return withCredentials(ownerUrl, role, password);
}

/** The same database URL with another user and password. */
export function withCredentials(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** The user a database URL logs in as. */
export function userOf(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

/**
 * Migrates as the owner and, when the app connects as another role (DATABASE_URL's user differs from the
 * owner's), grants that role what it needs — again after every migration, so nothing new is left out.
 */
export async function migrateAndGrant(
  ownerUrl: string,
  appUrl: string | undefined,
): Promise<MigrationResult & { grantedTo?: string }> {
  const result = await migrate(ownerUrl);
  const appUser = appUrl ? userOf(appUrl) : undefined;
  if (!appUser || appUser === userOf(ownerUrl)) return result;
  await grantAppRole(ownerUrl, appUser);
  return { ...result, grantedTo: appUser };
}
