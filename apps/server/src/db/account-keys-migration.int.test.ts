import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { adminQuery, withDatabase } from '../../../../test-support/database-server';

// Migration 027 (decision 056) rewrites the rows of a database in use: this file runs the migrations before it on
// an empty database, writes two accounts' data, then runs 027 as `herald migrate` does (one transaction).
const name = `${inject('databaseTemplate')}_keys027`;
const adminUrl = inject('databaseAdminUrl');
const migrationsDir = path.join(import.meta.dirname, 'migrations');
const KEYS_MIGRATION = '027.do.business-account-first-in-keys.sql';
let client: pg.Client;

async function runFile(file: string) {
  await client.query('begin');
  await client.query(await readFile(path.join(migrationsDir, file), 'utf8'));
  await client.query('commit');
}

const rows = async (sql: string) => (await client.query(sql)).rows;

beforeAll(async () => {
  await adminQuery(adminUrl, `create database ${name}`);
  client = new pg.Client({ connectionString: withDatabase(adminUrl, name) });
  await client.connect();
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files.filter((f) => f < KEYS_MIGRATION)) await runFile(file);
  await client.query(`
    insert into users (email, password_hash, pin_hash) values ('a@x.test', 'h', 'p'), ('b@x.test', 'h', 'p');
    insert into waba_accounts (waba_id, user_id, business_token_encrypted) values ('w1', 1, 't'), ('w2', 2, 't');
    insert into phone_numbers (waba_account_id, phone_number_id, display_phone_number, verified_name)
    values (1, 'p1', '+1', 'One'), (2, 'p2', '+2', 'Two');
    insert into contacts (waba_account_id, name, whatsapp_number)
    values (1, 'Ann', '+14155550001'), (1, 'Bob', '+14155550002'), (2, 'Cy', '+14155550003');
    insert into tags (waba_account_id, name) values (1, 'VIP'), (2, 'VIP');
    insert into contact_tags (contact_id, tag_id) values (1, 1), (2, 1), (3, 2);
    insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                            scheduled_at, status, template_category)
    values (1, 1, 'promo', 'en_US', 'Spring', '{}', now(), 'sending', 'MARKETING'),
           (2, 2, 'promo', 'en_US', 'Other', '{}', now(), 'sending', 'MARKETING');
    insert into broadcast_messages (broadcast_id, contact_id, whatsapp_number, state, wamid)
    values (1, 1, '+14155550001', 'sending', null), (1, 2, '+14155550002', 'sending', null),
           (2, 3, '+14155550003', 'queued', null);
    update broadcast_messages set state = 'delivered', wamid = 'wamid.' || id, accepted_at = now(),
                                  delivered_at = now() where broadcast_id = 1;
    insert into inbound_messages (waba_account_id, wamid, from_number, contact_id, kind, body, sent_at,
                                  broadcast_message_id)
    values (1, 'wamid.in', '+14155550001', 1, 'text', 'Thanks', now(), 1);
    update broadcast_messages set reply_id = 1, engaged_at = now(), replied_at = now() where id = 1;
    insert into broadcast_audiences (broadcast_id, contact_ids, numbers, written) values (2, '{3}', '{+14155550003}', 0);
    insert into broadcast_removed_outcomes (broadcast_id, state, recipients, replied) values (1, 'read', 5, 1);
    insert into broadcast_mails (broadcast_id) values (1);
  `);
});

afterAll(async () => {
  await client?.end();
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
});

describe('migration 027 on a database in use', () => {
  it("gives every row its parent's account, keeps ids, links and the Dashboard's figures, and refuses a link across accounts", async () => {
    const figures = 'select hour, category, sent, delivered, replied from dashboard_hours order by 1, 2';
    const before = await rows(figures);
    expect(before.length).toBeGreaterThan(0);
    const messagesBefore = await rows(
      'select id, broadcast_id, contact_id, reply_id, wamid from broadcast_messages',
    );

    await runFile(KEYS_MIGRATION);

    expect(await rows(figures)).toEqual(before);
    const messages = await rows(
      'select id, waba_account_id, broadcast_id, contact_id, reply_id, wamid from broadcast_messages order by id',
    );
    expect(messages.map(({ waba_account_id: _, ...rest }) => rest)).toEqual(
      [...messagesBefore].sort((a, b) => Number(a.id) - Number(b.id)),
    );
    expect(messages.map((m) => Number(m.waba_account_id))).toEqual([1, 1, 2]);
    expect(await rows('select waba_account_id::int, contact_id::int from contact_tags order by 2')).toEqual([
      { waba_account_id: 1, contact_id: 1 },
      { waba_account_id: 1, contact_id: 2 },
      { waba_account_id: 2, contact_id: 3 },
    ]);
    for (const [table, account] of [
      ['broadcast_audiences', 2],
      ['broadcast_removed_outcomes', 1],
      ['broadcast_mails', 1],
    ] as const) {
      expect(await rows(`select waba_account_id::int as account from ${table}`)).toEqual([{ account }]);
    }

    // The status webhook's key: the account and Meta's id.
    expect(
      await rows(`select id::int from broadcast_messages where waba_account_id = 1 and wamid = 'wamid.1'`),
    ).toEqual([{ id: 1 }]);
    // A row naming another account's contact is refused; a new row takes the next id.
    await expect(
      client.query(
        `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number)
         values (2, 2, 1, '+14155550009')`,
      ),
    ).rejects.toMatchObject({ code: '23503' });
    const added = await rows(
      `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number)
       values (1, 1, '+14155550009') returning id::int`,
    );
    expect(added[0].id).toBeGreaterThan(3);
    // Removing the reply clears the message's link only, never its account.
    await client.query('delete from inbound_messages where id = 1');
    expect(await rows('select waba_account_id::int, reply_id from broadcast_messages where id = 1')).toEqual([
      { waba_account_id: 1, reply_id: null },
    ]);
  });
});
