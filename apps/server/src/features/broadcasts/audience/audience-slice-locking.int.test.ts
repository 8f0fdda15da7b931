import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../../test-support/test-database';
import { recordPeople } from '../../contacts/bsuid-contacts';
import { lockBroadcasts } from '../broadcast-counts';
import { insertAudienceSlice } from '../message-rows';

/**
 * An audience slice being written and a status webhook batch of the same account, held in the order that
 * deadlocked them under load (the scale bench: two broadcasts to the same contacts, 121 'deadlock detected' in
 * four runs, the second broadcast's audience stalled for up to 60 s). The batch records a contact's BSUID, which
 * locks the contact row; the slice, which has already checked its broadcast row (FOR KEY SHARE, the message
 * rows' foreign key), checks that contact next; then the batch locks its broadcasts. Two locks used to close the
 * circle: recordPeople's FOR UPDATE of the contact (the slice's KEY SHARE waited for it) and the batch's FOR
 * UPDATE of the broadcast (which waited for the slice's KEY SHARE). Both are FOR NO KEY UPDATE now: neither
 * changes a key, and neither waits for a foreign key's check.
 */
let db: TestDatabase;
let account: number;
let broadcastId: number;
const NUMBERS = ['+4479111000001', '+4479111000002', '+4479111000003'];

beforeAll(async () => {
  db = await createTestDatabase();
  const { rows } = await db.pool.query<{ account: number; broadcast: number }>(
    `with u as (insert into users (email, password_hash, pin_hash) values ('lock@acme.test', 'x', 'x') returning id),
     w as (insert into waba_accounts (waba_id, user_id, business_token_encrypted)
           select 'waba-lock', id, 'x' from u returning id),
     p as (insert into phone_numbers (waba_account_id, phone_number_id, display_phone_number, verified_name)
           select id, 'phone-lock', '+1 555 0100', 'Lock Co' from w returning id, waba_account_id),
     b as (insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name,
                                   audience, scheduled_at, status, total_recipients, started_at)
           select waba_account_id, id, 'hello', 'en_US', 'slices', '{"type":"all","percentage":100}', now(),
                  'sending', 3, now() from p returning id, waba_account_id)
     select waba_account_id::int as account, id::int as broadcast from b`,
  );
  account = rows[0]!.account;
  broadcastId = rows[0]!.broadcast;
  const contacts = await db.pool.query<{ id: number }>(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select $1, 'Person ' || n, n from unnest($2::text[]) with ordinality as x(n, i) order by i
     returning id::int`,
    [account, NUMBERS],
  );
  await db.pool.query(
    `insert into broadcast_audiences (waba_account_id, broadcast_id, contact_ids, numbers, written)
     values ($1, $2, $3, $4, 0)`,
    [account, broadcastId, contacts.rows.map((c) => c.id), NUMBERS],
  );
}, 60_000);

afterAll(() => db?.drop());

/** Resolves once the connection with this backend pid waits for a lock, or `done()` says it went through. */
async function waitingForLockOrDone(pid: number, done: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (done()) return;
    const { rows } = await db.pool.query(
      "select wait_event_type = 'Lock' as waits from pg_stat_activity where pid = $1",
      [pid],
    );
    if (rows[0]?.waits) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`backend ${pid} neither waited for a lock nor finished`);
}

describe('an audience slice and a status batch of the same broadcast', () => {
  it('both commit, whichever locks first', async () => {
    const batch = await db.pool.connect();
    const slice = await db.pool.connect();
    let writing: Promise<unknown> | undefined;
    try {
      await batch.query('begin');
      // The second contact gains its BSUID as the batch records its people: its row stays locked until the
      // batch commits.
      await recordPeople(batch, 'waba-lock', [
        { number: NUMBERS[1]!, bsuid: 'US.13491208655302741918', username: null, name: null },
      ]);
      await slice.query('begin');
      const slicePid = (await slice.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      // The first row's keys are checked (the broadcast among them), then the second's contact: it waited for the
      // batch while recordPeople locked its contacts FOR UPDATE.
      let inserted = false;
      writing = insertAudienceSlice(slice, broadcastId, 0, NUMBERS.length).then(
        () => {
          inserted = true;
          return slice.query('commit');
        },
        async (error: Error) => {
          await slice.query('rollback');
          throw error;
        },
      );
      await waitingForLockOrDone(slicePid, () => inserted);
      // Deadlock detection would end one of the two after deadlock_timeout (1 s): the batch must not wait at all.
      await batch.query("set local lock_timeout = '500ms'");
      await lockBroadcasts(batch, [broadcastId]);
      await batch.query('commit');
      await writing;
    } finally {
      await batch.query('rollback').catch(() => undefined);
      // A failed batch released the contact: the slice then ends one way or the other before its connection goes.
      await writing?.catch(() => undefined);
      batch.release();
      slice.release();
    }
    const { rows } = await db.pool.query<{ whatsapp_number: string }>(
      'select whatsapp_number from broadcast_messages where broadcast_id = $1 order by id',
      [broadcastId],
    );
    expect(rows.map((r) => r.whatsapp_number)).toEqual(NUMBERS);
    const contact = await db.pool.query('select bsuid from contacts where whatsapp_number = $1', [
      NUMBERS[1],
    ]);
    expect(contact.rows[0].bsuid).toBe('US.13491208655302741918');
  });
});
