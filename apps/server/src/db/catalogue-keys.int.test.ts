import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test-support/test-database';

/**
 * The schema stays ready for Citus distributing a business's data by waba_account_id (decision 056): Citus
 * enforces a primary or unique key only when it holds the distribution column, keeps a foreign key between two
 * distributed tables only when both sides name it, and refuses one from a reference table to a distributed one.
 * Every table of the public schema is distributed unless named here; a new table is checked without being listed.
 */
const NOT_DISTRIBUTED = new Set([
  // Reference tables: small, global, with keys that must hold across every account.
  'users',
  'refresh_tokens',
  'waba_accounts',
  'phone_numbers',
  'sender_leases',
  'attempt_counters',
  // A messaging portfolio spans accounts: distributed by its own key.
  'messaging_portfolios',
  'portfolio_reach',
  // Coordinator tables: the webhook inbox (stored before its account is known), the heartbeats, the migrations.
  'webhook_events',
  'worker_heartbeats',
  // The live broadcast engines sharing the numbers (decision 055, migration 026): one row per worker.
  'broadcast_workers',
  'schema_migrations',
]);
const ACCOUNT = 'waba_account_id';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function rows<T>(sql: string): Promise<T[]> {
  return (await db.pool.query(sql)).rows as T[];
}

async function distributedTables(): Promise<string[]> {
  const tables = await rows<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      order by 1`,
  );
  return tables.map((t) => t.name).filter((name) => !NOT_DISTRIBUTED.has(name));
}

describe('the catalogue: the business account first in every key of the distributed tables', () => {
  it('counts every table of a business among the distributed ones', async () => {
    const distributed = await distributedTables();
    // The tables decision 046 named, and the ones that had the account first already.
    for (const name of [
      'contacts',
      'contact_tags',
      'tags',
      'templates',
      'template_media',
      'broadcasts',
      'broadcast_messages',
      'broadcast_audiences',
      'broadcast_mails',
      'broadcast_removed_outcomes',
      'inbound_messages',
      'account_events',
      'account_events_seen',
      'dashboard_hours',
      'contact_counts',
    ]) {
      expect(distributed).toContain(name);
    }
  });

  it('gives each distributed table a not-null account column first in its primary key', async () => {
    const keys = await rows<{ name: string; first: string | null; nullable: boolean | null }>(
      `select c.relname as name,
              (select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
                where i.indrelid = c.oid and i.indisprimary) as first,
              (select not a.attnotnull from pg_attribute a
                where a.attrelid = c.oid and a.attname = '${ACCOUNT}' and not a.attisdropped) as nullable
         from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')`,
    );
    const distributed = new Set(await distributedTables());
    const wrong = keys
      .filter((k) => distributed.has(k.name) && (k.first !== ACCOUNT || k.nullable !== false))
      .map(
        (k) => `${k.name}: primary key starts with ${k.first ?? 'nothing'}, account nullable ${k.nullable}`,
      );
    expect(wrong).toEqual([]);
  });

  it('starts every unique index of a distributed table with the account (partial and expression ones too)', async () => {
    const indexes = await rows<{ table_name: string; index_name: string; first: string | null }>(
      `select c.relname as table_name, ic.relname as index_name,
              (select a.attname from pg_attribute a where a.attrelid = i.indrelid and a.attnum = i.indkey[0]) as first
         from pg_index i join pg_class c on c.oid = i.indrelid join pg_class ic on ic.oid = i.indexrelid
        where c.relnamespace = 'public'::regnamespace and i.indisunique`,
    );
    const distributed = new Set(await distributedTables());
    const wrong = indexes
      .filter((i) => distributed.has(i.table_name) && i.first !== ACCOUNT)
      .map((i) => `${i.table_name}.${i.index_name} starts with ${i.first ?? 'an expression'}`);
    expect(wrong).toEqual([]);
  });

  it('makes each foreign key between distributed tables join account to account, and none point from a reference table to one', async () => {
    const keys = await rows<{ name: string; from_table: string; to_table: string; pairs: string[] }>(
      `select k.conname as name, f.relname as from_table, t.relname as to_table,
              array(select fa.attname || '=' || ta.attname
                      from unnest(k.conkey, k.confkey) as p(fk, tk)
                      join pg_attribute fa on fa.attrelid = k.conrelid and fa.attnum = p.fk
                      join pg_attribute ta on ta.attrelid = k.confrelid and ta.attnum = p.tk) as pairs
         from pg_constraint k join pg_class f on f.oid = k.conrelid join pg_class t on t.oid = k.confrelid
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace`,
    );
    const distributed = new Set(await distributedTables());
    const between = keys.filter((k) => distributed.has(k.from_table) && distributed.has(k.to_table));
    expect(between.map((k) => k.name)).toContain('broadcast_messages_broadcast_id_fkey');
    const wrong = [
      ...between
        .filter((k) => !k.pairs.includes(`${ACCOUNT}=${ACCOUNT}`))
        .map((k) => `${k.name} (${k.pairs.join(', ')}) does not join the accounts`),
      ...keys
        .filter((k) => !distributed.has(k.from_table) && distributed.has(k.to_table))
        .map((k) => `${k.name}: reference table ${k.from_table} points at distributed ${k.to_table}`),
    ];
    expect(wrong).toEqual([]);
  });
});
