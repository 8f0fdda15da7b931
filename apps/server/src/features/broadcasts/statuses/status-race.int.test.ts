import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postSignedWebhook } from '../../webhooks/webhook-test-helpers';
import { settleMessages, type SendResult } from '../sending/message-settle';

/**
 * A status webhook applied while the sender writes the same rows' results must land. The schedule is held, not
 * hoped for: a test connection locks the first row, so the webhook batch takes its snapshot and then waits for
 * that lock; meanwhile the sender settles a third of the rows and commits; then the lock is released. On
 * PostgreSQL 18 (the cluster `npm start` embeds) the batch's old single statement, which locked and updated
 * the rows together, dropped every row the sender had just written, and their 'failed' was lost for good (the
 * same drop lost 'delivered' and 'read' statuses on the default stack).
 * Run on the suite's database server and on an embedded PostgreSQL 18 cluster.
 */
const MESSAGES = 120;
/** Rounds on one table: the drop showed from the fourth round on, every run. */
const ROUNDS = 6;

interface Setup {
  t: TestApp;
  wabaId: string;
  accountId: number;
  phoneId: number;
}

async function business(t: TestApp): Promise<Setup> {
  const owner = await signedInUser(t, `race-${randomBytes(3).toString('hex')}@acme.test`);
  const { rows } = await t.db.pool.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w
       join phone_numbers p on p.waba_account_id = w.id where w.waba_id = $1 limit 1`,
    [owner.business.waba_id],
  );
  return { t, wabaId: owner.business.waba_id, accountId: rows[0]!.account, phoneId: rows[0]!.phone };
}

/**
 * A sending broadcast whose rows have all been requested: their results and statuses are on their way. Its rows
 * fill their pages, so the sender's update of a row writes the new version on another page (not a heap-only
 * tuple on the same page): the case that lost statuses.
 */
async function requestedRows({ t, accountId, phoneId }: Setup): Promise<number[]> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `with b as (
       insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, total_recipients, started_at)
       values ($1, $2, 'hello', 'en_US', 'race', '{"type":"all","percentage":100}', now(), 'sending', $3, now())
       returning id)
     insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts, requested_at)
     select $1, b.id, '+4479111' || lpad(n::text, 5, '0'), 'sending', 1, now() from b, generate_series(1, $3) n
     returning id::int`,
    [accountId, phoneId, MESSAGES],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

function failedWebhook(wabaId: string, ids: number[]): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              // Each row's 'sent', then its 'failed' (one batch may carry several statuses of one message).
              statuses: ids.flatMap((id) =>
                ['sent', 'failed'].map((status) => ({
                  id: `wamid.race.${id}`,
                  status,
                  timestamp: '1',
                  recipient_id: '447911100000',
                  biz_opaque_callback_data: String(id),
                  ...(status === 'failed'
                    ? { errors: [{ code: 131000, title: 'Something went wrong' }] }
                    : {}),
                })),
              ),
            },
          },
        ],
      },
    ],
  });
}

/** Resolves once a connection to this database waits for a row lock (the webhook batch behind the held row). */
async function someoneWaitsForALock(setup: Setup): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const { rows } = await setup.t.db.pool.query(
      `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the webhook batch never waited for the held row');
}

async function statusesWhileTheSenderSettles(setup: Setup) {
  const { t, wabaId, accountId } = setup;
  const ids = await requestedRows(setup);
  const holder = await t.db.pool.connect();
  try {
    await holder.query('begin');
    await holder.query('select 1 from broadcast_messages where id = $1 for update', [ids[0]]);
    const posted = postSignedWebhook(t, failedWebhook(wabaId, ids));
    await someoneWaitsForALock(setup);
    // The sender's answers for every third row (not the held one) are written and committed meanwhile.
    const answered = ids.filter((_, i) => i % 3 === 1);
    const results: SendResult[] = answered.map((id) => ({
      id,
      state: 'accepted',
      wamid: `wamid.race.${id}`,
      at: new Date(),
    }));
    await settleMessages(t.db.pool, accountId, results);
    await holder.query('rollback');
    expect((await posted).statusCode).toBe(200);
    await t.app.webhooks.idle();
  } finally {
    holder.release();
  }
  const { rows } = await t.db.pool.query<{ state: string; n: number }>(
    `select state, count(*)::int as n from broadcast_messages where id = any($1::bigint[]) group by state`,
    [ids],
  );
  const events = await t.db.pool.query(
    'select count(*)::int as n from webhook_events where processed_at is null or last_error is not null',
  );
  return { states: rows, unprocessed: events.rows[0].n };
}

const expected = { states: [{ state: 'failed', n: MESSAGES }], unprocessed: 0 };
const roundsExpected = Array.from({ length: ROUNDS }, (_, round) => ({ round, ...expected }));

/**
 * The schedule again and again on one table, its rows removed between rounds and its statistics left as the
 * first round found them (autovacuum off for the test's table, so no analyze runs meanwhile): once the table
 * has that history, PostgreSQL 18 dropped the rows every time (from the fourth round on a fresh database).
 */
async function rounds(setup: Setup) {
  await setup.t.db.pool.query('alter table broadcast_messages set (autovacuum_enabled = false)');
  const outcomes = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    outcomes.push({ round, ...(await statusesWhileTheSenderSettles(setup)) });
    await setup.t.db.pool.query('delete from broadcast_messages');
  }
  return outcomes;
}

describe("status webhooks and the sender's results for the same rows, at the same moment", () => {
  describe("on the suite's database server", () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await business(await startTestApp());
    });
    afterAll(() => setup?.t.close());

    it('every status lands, on rows the sender settled meanwhile too', async () => {
      expect(await rounds(setup)).toEqual(roundsExpected);
    });
  });

  describe('on the PostgreSQL 18 cluster that npm start embeds', () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await business(await startTestApp({}, { database: 'embedded' }));
    }, 120_000);
    afterAll(() => setup?.t.close());

    it('every status lands, on rows the sender settled meanwhile too', async () => {
      const version = await setup.t.db.pool.query<{ v: number }>(
        `select current_setting('server_version_num')::int / 10000 as v`,
      );
      expect(version.rows[0]!.v).toBe(18);
      expect(await rounds(setup)).toEqual(roundsExpected);
    });
  });
});
