import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test-support/test-database';
import { recordPeople, type WebhookPerson } from './bsuid-contacts';

/**
 * Every status webhook names its person (number and BSUID), so two API processes draining webhook batches at
 * once record the same contacts in different orders. Neither may wait on the other's contacts while holding its
 * own: that deadlocked, Postgres aborted one batch, and the statuses it carried waited for the retry.
 */
let db: TestDatabase;
const WABA = '900000000000001';
const person = (i: number): WebhookPerson => ({
  number: `+1628000000${i}`,
  bsuid: `US.20000000000000${i}`,
  username: `user${i}`,
  name: null,
});

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(
    `with u as (insert into users (email, password_hash, pin_hash) values ('lock@herald.test', 'x', 'x') returning id),
          w as (insert into waba_accounts (waba_id, user_id, business_token_encrypted) select $1, id, 'sealed' from u returning id)
     insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1628000000' || i from w, generate_series(1, 4) i`,
    [WABA],
  );
});

afterAll(() => db.drop());

describe('recording what webhooks say of contacts, from two transactions at once', () => {
  it('neither waits on the other: no deadlock, both commit, and every contact ends with its BSUID and username', async () => {
    const a = await db.pool.connect();
    const b = await db.pool.connect();
    try {
      await a.query('begin');
      await b.query('begin');
      await a.query("set local lock_timeout = '3s'");
      await b.query("set local lock_timeout = '3s'");
      // Each holds a contact the other is about to record.
      await recordPeople(a, WABA, [person(1)]);
      await recordPeople(b, WABA, [person(2)]);
      const [first, second] = await Promise.allSettled([
        recordPeople(a, WABA, [person(3), person(2)]),
        recordPeople(b, WABA, [person(4), person(1)]),
      ]);
      expect(first.status).toBe('fulfilled');
      expect(second.status).toBe('fulfilled');
      await a.query('commit');
      await b.query('commit');
    } finally {
      a.release();
      b.release();
    }
    const { rows } = await db.pool.query(
      'select whatsapp_number, bsuid, username from contacts order by whatsapp_number',
    );
    expect(rows).toEqual(
      [1, 2, 3, 4].map((i) => ({
        whatsapp_number: person(i).number,
        bsuid: person(i).bsuid,
        username: person(i).username,
      })),
    );
  });

  it('a contact skipped because another transaction held it learns its BSUID from the next status', async () => {
    await db.pool.query(
      "update contacts set bsuid = null, username = null where whatsapp_number = '+16280000001'",
    );
    const holder = await db.pool.connect();
    try {
      await holder.query('begin');
      await holder.query("select 1 from contacts where whatsapp_number = '+16280000001' for update");
      const client = await db.pool.connect();
      try {
        await recordPeople(client, WABA, [person(1)]);
      } finally {
        client.release();
      }
      await holder.query('commit');
    } finally {
      holder.release();
    }
    const bsuid = async () =>
      (await db.pool.query("select bsuid from contacts where whatsapp_number = '+16280000001'")).rows[0]
        .bsuid;
    expect(await bsuid()).toBeNull();
    const client = await db.pool.connect();
    try {
      await recordPeople(client, WABA, [person(1)]);
    } finally {
      client.release();
    }
    expect(await bsuid()).toBe(person(1).bsuid);
  });
});
