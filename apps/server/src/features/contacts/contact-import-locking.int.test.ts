import { Readable } from 'node:stream';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';
import { ContactImport, type ImportHooks } from './contact-import';
import { contactsUser } from './contacts-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof contactsUser>>;

/** 30,000 rows: two chunks of the import, numbers +14153000000 on; `rows[i]` replaces row i. */
function bigFile(rows: Record<number, string> = {}): Readable {
  const lines = ['name,number'];
  for (let i = 0; i < 30_000; i += 1) lines.push(rows[i] ?? `Person ${i},${numberOf(i)}`);
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) parts.push(bytes.subarray(at, at + 65_536));
  return Readable.from(parts);
}
const numberOf = (row: number) => `+1415${3_000_000 + row}`;

/** Hooks that hold the import after its first chunk, its transaction open, until `release` is called. */
function holdAfterFirstChunk() {
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let chunks = 0;
  const hooks: ImportHooks = {
    onChunkWritten: async () => {
      chunks += 1;
      if (chunks > 1) return;
      reached();
      await released;
    },
  };
  return { hooks, held, release };
}

async function accountId(user: User): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: string }>('select id from waba_accounts where waba_id = $1', [
    user.business.waba_id,
  ]);
  return Number(rows[0]!.id);
}

async function create(user: User, name: string, number: string, tags?: string[]) {
  return t.app.inject({
    method: 'POST',
    url: '/recipient/create/',
    headers: user.headers,
    payload: { customer_name: name, whatsapp_number: number, ...(tags ? { tags } : {}) },
  });
}

async function contact(account: number, number: string) {
  const { rows } = await t.db.pool.query<{
    id: string;
    name: string;
    opted_out_at: Date | null;
    tags: string[];
  }>(
    `select c.id, c.name, c.opted_out_at,
            array(select g.name from contact_tags ct join tags g on g.waba_account_id = ct.waba_account_id
                   and g.id = ct.tag_id where ct.waba_account_id = c.waba_account_id and ct.contact_id = c.id
                  order by g.name) as tags
       from contacts c where c.waba_account_id = $1 and c.whatsapp_number = $2`,
    [account, number],
  );
  return rows[0];
}

/** The account's committed contacts, counted, beside the total contact_counts keeps. */
async function totals(account: number) {
  const { rows } = await t.db.pool.query<{ counted: number; kept: number }>(
    `select (select count(*) from contacts where waba_account_id = $1)::int as counted,
            (select total from contact_counts where waba_account_id = $1)::int as kept`,
    [account],
  );
  return rows[0]!;
}

/**
 * Waits for `n` statements of this database to be waiting for a lock (a condition, not a sleep). On a
 * connection of its own: the app's pool is taken by the import and the writes waiting for it.
 */
async function waitersOnLocks(n: number): Promise<void> {
  const observer = new Client({ connectionString: t.db.url });
  await observer.connect();
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await observer.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (rows[0]!.n >= n) return;
      if (Date.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${n} statements wait for a lock`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await observer.end();
  }
}

function stop(user: User, from: string) {
  return postMessagesWebhook(t, user.business.waba_id, {
    contacts: [{ wa_id: from, profile: { name: 'Someone' } }],
    messages: [{ from, id: `wamid.stop-${from}`, timestamp: '1', type: 'text', text: { body: 'STOP' } }],
  });
}

describe('an import runs beside the account’s other contact writes', () => {
  it('lets edits, adds and STOPs of contacts it has not reached commit while it is held mid-transaction', async () => {
    const user = await contactsUser(t, 'lock-free@acme.test');
    const account = await accountId(user);
    // A and B are not in the file; C is, in its second chunk. The tag exists, so chunks link to it as written.
    expect((await create(user, 'A', '+14155553001', ['bulk'])).statusCode).toBe(201);
    expect((await create(user, 'B', '+14155553002')).statusCode).toBe(201);
    expect((await create(user, 'C', numberOf(29_000))).statusCode).toBe(201);
    const { hooks, held, release } = holdAfterFirstChunk();
    const session = new ContactImport(t.db.pool, account, hooks);
    session.setTag('bulk');
    const loading = session.load(bigFile({ 29_000: `C from file,${numberOf(29_000)}` }));
    await held;
    // 25,000 contacts written and not committed: none of them is seen outside the import.
    expect(await totals(account)).toEqual({ counted: 3, kept: 3 });

    const a = await contact(account, '+14155553001');
    const edit = await t.app.inject({
      method: 'PUT',
      url: '/meta/customer/',
      headers: user.headers,
      payload: {
        customer_id: Number(a!.id),
        customer_name: 'A edited',
        whatsapp_number: '+14155553001',
        tags: ['bulk', 'vip'],
      },
    });
    expect(edit.statusCode).toBe(200);
    const b = await contact(account, '+14155553002');
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/recipient/tags/add/',
      headers: user.headers,
      payload: { contact_ids: [Number(a!.id), Number(b!.id)], tag_name: 'promo' },
    });
    expect(bulk.statusCode).toBe(200);
    expect((await create(user, 'D', '+14155553004')).statusCode).toBe(201);
    // G takes a number of the file's second chunk, which the import read as new: that chunk is merged instead.
    expect((await create(user, 'G', numberOf(27_000))).statusCode).toBe(201);
    expect((await stop(user, '14155553002')).statusCode).toBe(200);
    expect((await stop(user, numberOf(29_000).slice(1))).statusCode).toBe(200);
    expect((await contact(account, '+14155553002'))!.opted_out_at).not.toBeNull();
    // All of that committed while the import still had its first chunk uncommitted.
    expect(await totals(account)).toEqual({ counted: 5, kept: 5 });

    release();
    expect(await loading).toMatchObject({ kind: 'done' });
    const result = await session.commit('bulk');
    await session.close();
    expect(result).toEqual({ created: 29_998, updated: 2, total: 30_000, duplicates_in_file: 0 });
    expect(await totals(account)).toEqual({ counted: 30_003, kept: 30_003 });
    expect(await contact(account, '+14155553001')).toMatchObject({
      name: 'A edited',
      tags: ['bulk', 'promo', 'vip'],
    });
    const c = await contact(account, numberOf(29_000));
    expect(c).toMatchObject({ name: 'C from file', tags: ['bulk'] });
    expect(c!.opted_out_at).not.toBeNull();
    expect(await contact(account, numberOf(27_000))).toMatchObject({ name: 'Person 27000', tags: ['bulk'] });
    expect(await contact(account, numberOf(0))).toMatchObject({ name: 'Person 0', tags: ['bulk'] });
  });

  it('makes writes to contacts and numbers it has written wait for its commit, and ends consistent', async () => {
    const user = await contactsUser(t, 'lock-conflict@acme.test');
    const account = await accountId(user);
    // E and H are in the file's first chunk; F is not in the file.
    expect((await create(user, 'E', numberOf(100))).statusCode).toBe(201);
    expect((await create(user, 'H', numberOf(200))).statusCode).toBe(201);
    expect((await create(user, 'F', '+14155554006')).statusCode).toBe(201);
    const e = await contact(account, numberOf(100));
    const h = await contact(account, numberOf(200));
    const f = await contact(account, '+14155554006');
    const { hooks, held, release } = holdAfterFirstChunk();
    const session = new ContactImport(t.db.pool, account, hooks);
    session.setTag('wave');
    const loading = session.load(bigFile());
    await held;

    const edit = t.app.inject({
      method: 'PUT',
      url: '/meta/customer/',
      headers: user.headers,
      payload: { customer_id: Number(e!.id), customer_name: 'E edited', whatsapp_number: numberOf(100) },
    });
    const removal = t.app.inject({ method: 'DELETE', url: `/recipient/${h!.id}/`, headers: user.headers });
    // A number the import has copied in, uncommitted: as a new contact, and as F's new number.
    const taken = create(user, 'Twin', numberOf(300));
    const renumber = t.app.inject({
      method: 'PUT',
      url: '/meta/customer/',
      headers: user.headers,
      payload: { customer_id: Number(f!.id), customer_name: 'F', whatsapp_number: numberOf(400) },
    });
    await waitersOnLocks(4);

    release();
    expect(await loading).toMatchObject({ kind: 'done' });
    const result = await session.commit('wave');
    await session.close();
    expect(result).toEqual({ created: 29_998, updated: 2, total: 30_000, duplicates_in_file: 0 });
    expect((await edit).statusCode).toBe(200);
    expect((await removal).statusCode).toBe(204);
    expect((await taken).statusCode).toBe(409);
    expect((await renumber).statusCode).toBe(409);
    // Each write applied after the import, as if one after the other.
    expect(await contact(account, numberOf(100))).toMatchObject({ name: 'E edited', tags: ['wave'] });
    expect(await contact(account, numberOf(200))).toBeUndefined();
    expect(await contact(account, '+14155554006')).toMatchObject({ name: 'F', tags: [] });
    expect(await contact(account, numberOf(300))).toMatchObject({ name: 'Person 300', tags: ['wave'] });
    expect(await totals(account)).toEqual({ counted: 30_000, kept: 30_000 });
    const { rows } = await t.db.pool.query<{ n: number }>(
      `select count(*)::int as n from contact_tags ct where ct.waba_account_id = $1
          and not exists (select 1 from contacts c where c.waba_account_id = ct.waba_account_id and c.id = ct.contact_id)`,
      [account],
    );
    expect(rows[0]!.n).toBe(0);
  });
});
