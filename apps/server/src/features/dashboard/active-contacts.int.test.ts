import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test-support/test-database';
import { activeContacts } from './active-contacts';

// Active Contacts from the kept (hour, previous hour) counts against a distinct count of the activity rows, for
// random activity written in random batches: out of order (a late webhook) and several batches at once on
// separate connections, as the sender and the inbound webhooks write.

let db: TestDatabase;
let accountId: number;
const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const at = (hour: number) => new Date(T0 + hour * HOUR);

beforeAll(async () => {
  db = await createTestDatabase();
  const { rows } = await db.pool.query<{ id: number }>(
    `with u as (insert into users (email, password_hash, pin_hash) values ('active@herald.test', 'x', 'x') returning id)
     insert into waba_accounts (waba_id, user_id, business_token_encrypted) select 'waba-active', id, 'x' from u
     returning id::int`,
  );
  accountId = rows[0]!.id;
});
afterAll(() => db.drop());

/** One activity: a number (of a few, so they repeat) at a minute of a two-day window. */
const activityArb = fc.record({
  number: fc.integer({ min: 0, max: 5 }),
  minute: fc.integer({ min: 0, max: 48 * 60 - 1 }),
});
/** Batches of activity; the batches of one group are written at once, the groups one after another. */
const historyArb = fc.array(
  fc.array(fc.array(activityArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
  {
    minLength: 1,
    maxLength: 6,
  },
);
const rangeArb = fc
  .tuple(fc.integer({ min: -2, max: 50 }), fc.integer({ min: -2, max: 50 }))
  .map(([a, b]): [number, number] => (a <= b ? [a, b + 1] : [b, a + 1]));

async function write(batch: { number: number; minute: number }[]): Promise<void> {
  await db.pool.query('select dashboard_activity($1, $2, $3)', [
    batch.map(() => accountId),
    batch.map((a) => new Date(T0 + a.minute * 60_000)),
    batch.map((a) => `+4479111000${a.number}`),
  ]);
}

describe('Active Contacts of any range', () => {
  it('equals a distinct count of the activity, whatever order and concurrency it was written in', async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArb,
        fc.array(rangeArb, { minLength: 5, maxLength: 5 }),
        async (groups, ranges) => {
          await db.pool.query('truncate dashboard_active, dashboard_active_pairs, dashboard_last_active');
          for (const group of groups) await Promise.all(group.map(write));
          for (const [from, to] of ranges) {
            const { rows } = await db.pool.query<{ n: number }>(
              `select count(distinct whatsapp_number)::int as n from dashboard_active
              where waba_account_id = $1 and hour >= $2 and hour < $3`,
              [accountId, at(from), at(to)],
            );
            expect(await activeContacts(db.pool, accountId, at(from), at(to))).toBe(rows[0]!.n);
          }
          // Every range at once: the appended counts add up to those a rebuild from the activity rows makes.
          const kept = await db.pool.query(
            `select hour, previous_hour, sum(numbers)::int as numbers from dashboard_active_pairs
            group by 1, 2 having sum(numbers) <> 0 order by 1, 2`,
          );
          await db.pool.query('select dashboard_active_pairs_rebuild($1)', [accountId]);
          const rebuilt = await db.pool.query(
            'select hour, previous_hour, numbers from dashboard_active_pairs order by 1, 2',
          );
          expect(kept.rows).toEqual(rebuilt.rows);
        },
      ),
      { numRuns: 60 },
    );
  });
});
