import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../../test-support/test-database';
import { audienceByPrefix, foldCounts } from './audience-counts';

/**
 * Migration 031's counts (decision 062) against a recount from the contacts themselves, after every kind of write
 * the app makes to contacts, links and tags: inserts and COPY, number changes, opt-outs and their end, links
 * added and removed, contacts and tags deleted, an account deleted.
 */
let db: TestDatabase;
let account: number;
let other: number;
let seed = 20261126;

/** A small deterministic generator (mulberry32): the same writes on every run. */
function random(n: number): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) % n;
}

const query = async <T>(sql: string, params: unknown[] = []) =>
  (await db.pool.query(sql, params)).rows as T[];

async function newAccount(name: string): Promise<number> {
  const [row] = await query<{ id: number }>(
    `with u as (insert into users (email, password_hash, pin_hash) values ($1, 'x', 'x') returning id)
     insert into waba_accounts (waba_id, user_id, business_token_encrypted) select $1, id, 'x' from u
     returning id::int`,
    [name],
  );
  return row!.id;
}

const PREFIXES = ['+1415', '+1416', '+4477', '+4915', '+9198', '+2348'];
const number = () =>
  `${PREFIXES[random(PREFIXES.length)]}${String(random(10 ** 7)).padStart(7, '0')}${random(3) === 0 ? '1' : ''}`;

async function kept(accountId: number) {
  return query(
    `select tag_id::int, prefix, sum(n)::int as n, sum(twelve)::int as twelve from audience_prefix_counts
      where waba_account_id = $1 group by 1, 2 having sum(n) <> 0 or sum(twelve) <> 0 order by 1, 2`,
    [accountId],
  );
}

async function recounted(accountId: number) {
  return query<{ tag_id: number; prefix: string; n: number; twelve: number }>(
    `select tag_id::int, prefix, n::int, twelve::int from (
       select 0 as tag_id, left(whatsapp_number, 5) collate "C" as prefix, count(*) as n,
              count(*) filter (where length(whatsapp_number) = 12) as twelve
         from contacts where waba_account_id = $1 and opted_out_at is null group by 2
       union all
       select l.tag_id, left(c.whatsapp_number, 5) collate "C", count(*),
              count(*) filter (where length(c.whatsapp_number) = 12)
         from contact_tags l join contacts c on c.waba_account_id = l.waba_account_id and c.id = l.contact_id
        where l.waba_account_id = $1 and c.opted_out_at is null group by 1, 2) x
     order by 1, 2`,
    [accountId],
  );
}

async function contactIds(accountId: number): Promise<number[]> {
  return (
    await query<{ id: number }>('select id::int from contacts where waba_account_id = $1 order by id', [
      accountId,
    ])
  ).map((row) => row.id);
}

beforeAll(async () => {
  db = await createTestDatabase();
  account = await newAccount('counts-a');
  other = await newAccount('counts-b');
});
afterAll(() => db.drop());

describe('the audience counts by prefix (migration 031)', () => {
  it('equal a recount after each of 60 random writes to contacts, links and tags', async () => {
    const tags = await query<{ id: number }>(
      `insert into tags (waba_account_id, name) select $1, 'tag' || i from generate_series(1, 3) i returning id::int`,
      [account],
    );
    const tagIds = tags.map((tag) => tag.id);
    // Another account's writes in between: they must not move this account's counts.
    await db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, 'Other', '+14155550000')`,
      [other],
    );
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'insert many',
        () =>
          query(
            `insert into contacts (waba_account_id, name, whatsapp_number)
         select $1, 'C', n from unnest($2::text[]) n on conflict do nothing`,
            [account, Array.from({ length: 1 + random(40) }, number)],
          ),
      ],
      [
        'link some to a tag',
        async () =>
          query(
            `insert into contact_tags (waba_account_id, contact_id, tag_id)
         select $1, id, $2 from contacts c where waba_account_id = $1 and id % $3 = 0
            and not exists (select 1 from contact_tags l where l.waba_account_id = $1 and l.contact_id = c.id and l.tag_id = $2)`,
            [account, tagIds[random(3)], 1 + random(4)],
          ),
      ],
      [
        'unlink some',
        () =>
          query(
            'delete from contact_tags where waba_account_id = $1 and tag_id = $2 and contact_id % 3 = $3',
            [account, tagIds[random(3)], random(3)],
          ),
      ],
      [
        'change a number',
        async () => {
          const ids = await contactIds(account);
          if (ids.length) {
            await query('update contacts set whatsapp_number = $3 where waba_account_id = $1 and id = $2', [
              account,
              ids[random(ids.length)],
              number(),
            ]).catch(() => undefined); // a number the account has already: refused, nothing changes
          }
        },
      ],
      [
        'opt some out',
        () =>
          query(
            'update contacts set opted_out_at = now() where waba_account_id = $1 and id % 5 = $2 and opted_out_at is null',
            [account, random(5)],
          ),
      ],
      [
        'opt some back in',
        () =>
          query('update contacts set opted_out_at = null where waba_account_id = $1 and id % 4 = $2', [
            account,
            random(4),
          ]),
      ],
      [
        'rename all (no count moves)',
        () => query(`update contacts set name = name || '.' where waba_account_id = $1`, [account]),
      ],
      [
        'delete some',
        () => query('delete from contacts where waba_account_id = $1 and id % 7 = $2', [account, random(7)]),
      ],
    ];
    const done = new Set<string>();
    for (let step = 0; step < 60; step += 1) {
      const [name, write] = writes[random(writes.length)]!;
      await write();
      done.add(name);
      expect(await kept(account), `after step ${step}: ${name}`).toEqual(await recounted(account));
    }
    expect(done.size).toBe(writes.length);
    expect((await kept(account)).length).toBeGreaterThan(0);

    // Folded into one row per prefix, the figures are the same, and a prefix that sums to nothing goes.
    const rowsOf = async () =>
      (
        await query<{ n: number }>(
          'select count(*)::int as n from audience_prefix_counts where waba_account_id = $1 and tag_id = 0',
          [account],
        )
      )[0]!.n;
    const before = await rowsOf();
    await foldCounts(db.pool, account, 0);
    expect(await rowsOf()).toBeLessThan(before);
    expect(await rowsOf()).toBe((await recounted(account)).filter((row) => row.tag_id === 0).length);
    expect(await kept(account)).toEqual(await recounted(account));

    // A tag deleted: its links go (migration 009) and its counts with them.
    await query('delete from tags where waba_account_id = $1 and id = $2', [account, tagIds[0]]);
    expect(await query('select 1 from audience_prefix_counts where tag_id = $1', [tagIds[0]])).toEqual([]);
    expect(await kept(account)).toEqual(await recounted(account));
    expect(await kept(other)).toEqual([{ tag_id: 0, prefix: '+1415', n: 1, twelve: 1 }]);
  });

  it('serve the estimate as the contacts themselves do, US numbers left out or not', async () => {
    const [tag] = await query<{ id: number }>(
      `insert into tags (waba_account_id, name) values ($1, 'estimate') returning id::int`,
      [account],
    );
    await query(
      `insert into contact_tags (waba_account_id, contact_id, tag_id)
       select $1, id, $2 from contacts where waba_account_id = $1 and id % 2 = 0`,
      [account, tag!.id],
    );
    for (const tagIds of [null, [tag!.id]]) {
      for (const leaveOutUs of [false, true]) {
        const counted = await audienceByPrefix(db.pool, account, { kind: 'tags', tagIds }, leaveOutUs);
        // The same audience grouped from the contacts themselves: everyone as a list of every contact, the tag
        // as any of two tags (the other carried by no one).
        const grouped = await audienceByPrefix(
          db.pool,
          account,
          tagIds
            ? { kind: 'tags', tagIds: [tag!.id, tag!.id + 1_000_000] }
            : { kind: 'list', contactIds: await contactIds(account) },
          leaveOutUs,
        );
        const byPrefix = (groups: typeof counted) =>
          Object.fromEntries(groups.map((g) => [g.sample.slice(0, 5), [g.n, g.us]]));
        expect(byPrefix(counted)).toEqual(byPrefix(grouped));
        const total = counted.reduce((sum, g) => sum + g.n, 0);
        expect(total).toBeGreaterThan(0);
        if (leaveOutUs) expect(counted.every((g) => g.us === 0)).toBe(true);
      }
    }
  });

  it('lock nothing: an opt-out goes through while an import into the same account and prefix is uncommitted', async () => {
    const importing = await db.pool.connect();
    const stopping = await db.pool.connect();
    try {
      await importing.query('begin');
      await importing.query(
        `insert into contacts (waba_account_id, name, whatsapp_number)
         select $1, 'Imported', '+1415' || lpad(i::text, 7, '0') from generate_series(1, 1000) i`,
        [account],
      );
      // A wait for the import's transaction would pass this timeout and fail the insert or the update.
      await stopping.query("set lock_timeout = '2s'");
      const added = await stopping.query<{ id: number }>(
        `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, 'Stopper', '+14159999999') returning id::int`,
        [account],
      );
      await stopping.query(
        'update contacts set opted_out_at = now() where waba_account_id = $1 and id = $2',
        [account, added.rows[0]!.id],
      );
      // A read folding the rows meanwhile leaves the import's uncommitted rows to count when it commits.
      await foldCounts(db.pool, account, 0);
      await importing.query('commit');
    } finally {
      importing.release();
      stopping.release();
    }
    expect(await kept(account)).toEqual(await recounted(account));
  });

  it('go with the account: deleting it, and its contacts with it, leaves no count behind', async () => {
    await query('delete from waba_accounts where id = $1', [account]);
    expect(await query('select 1 from audience_prefix_counts where waba_account_id = $1', [account])).toEqual(
      [],
    );
  });
});
