import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from '../../../../test-support/database-server';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../db/database-unavailable';
import { contactsUser, importCsv } from '../features/contacts/contacts-test-helpers';

// The database turns read-only (a failover to a replica, a full disk's emergency setting), or
// the disk fills in the middle of an import's COPY. The import answers an error that says what happened and
// writes nothing: the contacts, their count, the tags and the activity feed are as they were.
let t: TestApp;
let headers: Record<string, string>;
let wabaId: number;
const adminUrl = () => inject('databaseAdminUrl');
const databaseName = () => new URL(t.db.url).pathname.slice(1);

const rows = (count: number, start = 0) => {
  let text = 'name,number\n';
  for (let i = start; i < start + count; i += 1) text += `Person ${i},+1415${3_000_000 + i}\n`;
  return text;
};

/** Everything an import writes, for the account. */
async function snapshot() {
  const { rows: found } = await t.db.pool.query(
    `select (select count(*) from contacts where waba_account_id = $1)::int as contacts,
            (select total from contact_counts where waba_account_id = $1)::int as counted,
            (select count(*) from tags where waba_account_id = $1)::int as tags,
            (select count(*) from contact_tags l join contacts c on c.id = l.contact_id
              where c.waba_account_id = $1)::int as links,
            (select count(*) from account_events where waba_account_id = $1)::int as events,
            (select count(*) from contacts where waba_account_id = $1 and name like 'Renamed%')::int as renamed`,
    [wabaId],
  );
  return found[0];
}

/** Ends the app's open connections, so the next ones start with the database's new defaults. */
const reconnect = () =>
  adminQuery(
    adminUrl(),
    `select pg_terminate_backend(pid) from pg_stat_activity
      where datname = '${databaseName()}' and pid <> pg_backend_pid()`,
  );

beforeAll(async () => {
  t = await startTestApp();
  const user = await contactsUser(t, 'faults@acme.test');
  headers = user.headers;
  const first = await importCsv(t, headers, rows(1_000), { tag: 'first' });
  expect(first.statusCode, first.body).toBe(201);
  wabaId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [user.business.waba_id])
  ).rows[0].id;
}, 60_000);

afterAll(() => t?.close());

// 40,000 rows: the first 1,000 rename stored contacts, the rest are new; two chunks of COPY (25,000 each).
const bigImport = () => {
  let text = 'name,number\n';
  for (let i = 0; i < 40_000; i += 1)
    text += `${i < 1_000 ? 'Renamed' : 'Person'} ${i},+1415${3_000_000 + i}\n`;
  return text;
};

describe('an import while the database is read-only', () => {
  it('answers an error that says so and writes nothing', async () => {
    const before = await snapshot();
    await adminQuery(adminUrl(), `alter database ${databaseName()} set default_transaction_read_only = on`);
    await reconnect();
    let response;
    try {
      // The first try may meet a connection the termination just broke: the answer is a 503 too.
      response = await importCsv(t, headers, bigImport(), { tag: 'read only' });
      if (response.statusCode === 503 && !/read-only/i.test(response.body))
        response = await importCsv(t, headers, bigImport(), { tag: 'read only' });
    } finally {
      await adminQuery(adminUrl(), `alter database ${databaseName()} reset default_transaction_read_only`);
      await reconnect();
    }
    console.log(`import while read-only: ${response.statusCode} ${response.body}`);
    expect(await snapshot()).toEqual(before);
    // Not the generic 500: the database's state, with when to try again.
    expect(response.statusCode).toBe(503);
    expect(response.json().detail).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    expect(response.headers['retry-after']).toBe('5');
  }, 60_000);
});

describe('an import whose COPY fails half-way (the disk full)', () => {
  it('answers an error that says so and writes nothing of the chunks already copied', async () => {
    // Postgres's own disk-full error (SQLSTATE 53100) raised by the 30,000th row: the second COPY chunk, after
    // the first 25,000 rows are in the transaction.
    await adminQuery(
      t.db.url,
      `create function fault_disk_full() returns trigger language plpgsql as $$
       begin
         if new.name = 'Person 30000' then
           raise exception 'could not extend file "base/16384/16385": No space left on device'
             using errcode = '53100', hint = 'Check free disk space.';
         end if;
         return new;
       end $$;
       create trigger fault_disk_full before insert on contacts for each row execute function fault_disk_full();`,
    );
    const before = await snapshot();
    const response = await importCsv(t, headers, bigImport(), { tag: 'disk full' });
    console.log(`import with the disk full: ${response.statusCode} ${response.body}`);
    expect(await snapshot()).toEqual(before);
    // Not the generic 500: the database's state, with when to try again.
    expect(response.statusCode).toBe(503);
    expect(response.json().detail).toBe(DATABASE_UNAVAILABLE_MESSAGE);
    expect(response.headers['retry-after']).toBe('5');

    // Once space is back, the same file imports whole.
    await adminQuery(t.db.url, 'drop trigger fault_disk_full on contacts; drop function fault_disk_full()');
    const again = await importCsv(t, headers, bigImport(), { tag: 'disk full' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ created: 39_000, updated: 1_000, total: 40_000 });
  }, 60_000);
});
