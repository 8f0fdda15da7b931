import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';
import { contactsUser } from './contacts-test-helpers';

/**
 * People who change how WhatsApp knows them, in Meta's webhook shapes posted signed: a new number moves the
 * contact (or folds it into the contact already at that number), a new BSUID follows it, a STOP pressed in an
 * interactive reply counts, and a message naming its sender only in contacts[] reaches the contact.
 */
let t: TestApp;
let user: Awaited<ReturnType<typeof contactsUser>>;
let other: Awaited<ReturnType<typeof contactsUser>>;
let wamids = 0;

async function addContact(owner: typeof user, payload: Record<string, unknown>): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/recipient/create/',
    headers: owner.headers,
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

const post = (value: Record<string, unknown>, owner = user) =>
  postMessagesWebhook(t, owner.business.waba_id, {
    metadata: { display_phone_number: '15550000000', phone_number_id: owner.business.phone_number_id },
    ...value,
  });

/** A message from a number (digits, as Meta writes `from`), with its contacts[] entry. */
const fromNumber = (number: string, message: Record<string, unknown>) =>
  post({
    contacts: [{ profile: { name: 'Someone' }, wa_id: number.slice(1) }],
    messages: [{ from: number.slice(1), id: `wamid.pwc-${++wamids}`, timestamp: '1', ...message }],
  });

/** Meta's system message for a number change: no contacts[], the old number in `from`, the new in `system.wa_id`. */
const numberChange = (from: string, to: string, owner = user) =>
  post(
    {
      messages: [
        {
          from: from.slice(1),
          id: `wamid.pwc-${++wamids}`,
          timestamp: '2',
          type: 'system',
          system: {
            body: `User A changed from ${from} to ${to}`,
            wa_id: to.slice(1),
            type: 'user_changed_number',
          },
        },
      ],
    },
    owner,
  );

const contact = async (id: number) =>
  (
    await t.db.pool.query(
      `select c.whatsapp_number, c.bsuid, c.email, c.opted_out_at is not null as opted_out, c.attributes,
              coalesce((select array_agg(t.name order by t.name) from contact_tags l
                          join tags t on t.waba_account_id = l.waba_account_id and t.id = l.tag_id
                         where l.waba_account_id = c.waba_account_id and l.contact_id = c.id), '{}') as tags
         from contacts c where c.id = $1`,
      [id],
    )
  ).rows[0];

const contactOf = async (wamid: string) =>
  (
    await t.db.pool.query('select contact_id::int, from_number from inbound_messages where wamid = $1', [
      wamid,
    ])
  ).rows[0];

const numbersOf = async (owner: typeof user) =>
  (
    await t.db.pool.query(
      `select c.whatsapp_number from contacts c join waba_accounts w on w.id = c.waba_account_id
        where w.waba_id = $1 order by c.whatsapp_number`,
      [owner.business.waba_id],
    )
  ).rows.map((r) => r.whatsapp_number as string);

/** The audience counts kept by prefix (decision 062) against a recount, so moves and merges keep them true. */
async function expectCountsTrue(owner: typeof user) {
  const account = `(select id from waba_accounts where waba_id = $1)`;
  const kept = await t.db.pool.query(
    `select tag_id::int, prefix, sum(n)::int as n from audience_prefix_counts where waba_account_id = ${account}
      group by 1, 2 having sum(n) <> 0 order by 1, 2`,
    [owner.business.waba_id],
  );
  const recounted = await t.db.pool.query(
    `select tag_id::int, prefix, n::int from (
       select 0 as tag_id, left(whatsapp_number, 5) collate "C" as prefix, count(*) as n
         from contacts where waba_account_id = ${account} and opted_out_at is null group by 2
       union all
       select l.tag_id, left(c.whatsapp_number, 5) collate "C", count(*)
         from contact_tags l join contacts c on c.waba_account_id = l.waba_account_id and c.id = l.contact_id
        where l.waba_account_id = ${account} and c.opted_out_at is null group by 1, 2) x
     order by 1, 2`,
    [owner.business.waba_id],
  );
  expect(kept.rows).toEqual(recounted.rows);
}

beforeAll(async () => {
  t = await startTestApp();
  user = await contactsUser(t, 'people-who-change@herald.test');
  other = await contactsUser(t, 'people-who-change-other@herald.test');
}, 60_000);
afterAll(() => t.close());

describe('a user who changes number (user_changed_number)', () => {
  it('moves the contact to the new number with its history, tags and opt-out; replies from the new number reach it', async () => {
    const OLD = '+14155550301';
    const NEW = '+447700900399';
    const ann = await addContact(user, { customer_name: 'Ann', whatsapp_number: OLD, tags: ['VIP'] });
    const elsewhere = await addContact(other, { customer_name: 'Not Ann', whatsapp_number: OLD });
    await fromNumber(OLD, { type: 'text', text: { body: 'STOP' } });
    const history = `wamid.pwc-${wamids}`;
    expect(await contactOf(history)).toMatchObject({ contact_id: ann });

    await numberChange(OLD, NEW);
    expect(await contact(ann)).toMatchObject({ whatsapp_number: NEW, opted_out: true, tags: ['VIP'] });
    expect(await numbersOf(user)).not.toContain(OLD);
    expect(await contactOf(history)).toMatchObject({ contact_id: ann, from_number: OLD });
    // Only the WABA the entry names: another account's contact at the old number stays where it was.
    expect(await contact(elsewhere)).toMatchObject({ whatsapp_number: OLD });

    await fromNumber(NEW, { type: 'text', text: { body: 'start' } });
    expect(await contactOf(`wamid.pwc-${wamids}`)).toMatchObject({ contact_id: ann, from_number: NEW });
    expect(await contact(ann)).toMatchObject({ whatsapp_number: NEW, opted_out: false });
    const list = await t.app.inject({ method: 'GET', url: '/recipient/create/', headers: user.headers });
    expect(list.json().count).toBe(1);
    await expectCountsTrue(user);
  });

  it('on a clash keeps the contact at the new number, gives it the old one’s tags, opt-out and details, and marks the old one replaced', async () => {
    const OLD = '+14155550311';
    const NEW = '+14155550312';
    const bob = await addContact(user, { customer_name: 'Bob', whatsapp_number: OLD, tags: ['Spring'] });
    // The form has no e-mail field; an import would have set it.
    await t.db.pool.query(`update contacts set email = 'bob@example.test' where id = $1`, [bob]);
    const bobNew = await addContact(user, {
      customer_name: 'Bob (new phone)',
      whatsapp_number: NEW,
      tags: ['VIP'],
    });
    await fromNumber(OLD, { type: 'button', button: { payload: 'STOP', text: 'Stop promotions' } });
    const history = `wamid.pwc-${wamids}`;

    await numberChange(OLD, NEW);
    expect(await contact(bobNew)).toMatchObject({
      whatsapp_number: NEW,
      email: 'bob@example.test',
      opted_out: true,
      tags: ['Spring', 'VIP'],
    });
    expect(await contact(bob)).toMatchObject({
      whatsapp_number: OLD,
      opted_out: true,
      tags: [],
      attributes: { replaced_by: NEW },
    });
    expect(await contactOf(history)).toMatchObject({ contact_id: bob });

    // The person says START on the new number: the kept contact opts back in; Meta repeating the change (a new
    // delivery) does not fold the replaced record in again, so the opt-in holds.
    await fromNumber(NEW, { type: 'text', text: { body: 'START' } });
    expect(await contactOf(`wamid.pwc-${wamids}`)).toMatchObject({ contact_id: bobNew });
    await numberChange(OLD, NEW);
    expect(await contact(bobNew)).toMatchObject({ opted_out: false, tags: ['Spring', 'VIP'] });
    expect(await contact(bob)).toMatchObject({ whatsapp_number: OLD, opted_out: true });
    await expectCountsTrue(user);
  });
});

describe('broadcasts to a user who changes number', () => {
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await t.db.pool.query(sql, params)).rows as T[];

  async function broadcast(account: number, phone: number, name: string, status: string): Promise<number> {
    const [row] = await q<{ id: number }>(
      `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, started_at)
       values ($1, $2, 'spring_promo', 'en_US', $3, '{}', now() - interval '2 hours', $4, now() - interval '2 hours')
       returning id::int`,
      [account, phone, name, status],
    );
    return row!.id;
  }

  async function message(
    account: number,
    broadcastId: number,
    contactId: number,
    number: string,
    state: string,
  ) {
    const [row] = await q<{ id: number }>(
      `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state, wamid,
                                       accepted_at)
       values ($1, $2, $3, $4, $5, case when $5 = 'queued' then null else 'wamid.b-' || $2::bigint || '-' || $3::bigint end,
               case when $5 = 'queued' then null else now() - interval '1 hour' end)
       returning id::int`,
      [account, broadcastId, contactId, number, state],
    );
    return row!.id;
  }

  it('what was not yet sent goes to the new number; a plain reply from it answers what went to the old one', async () => {
    const OLD = '+14155550361';
    const NEW = '+14155550362';
    const [ids] = await q<{ account: number; phone: number }>(
      `select w.id::int as account, p.id::int as phone from waba_accounts w
         join phone_numbers p on p.waba_account_id = w.id where w.waba_id = $1`,
      [user.business.waba_id],
    );
    const { account, phone } = ids!;
    const cy = await addContact(user, { customer_name: 'Cy', whatsapp_number: OLD });
    const sentBroadcast = await broadcast(account, phone, 'Sent before', 'completed');
    const sent = await message(account, sentBroadcast, cy, OLD, 'delivered');
    const pending = await broadcast(account, phone, 'Still sending', 'sending');
    const queued = await message(account, pending, cy, OLD, 'queued');
    // A frozen audience not yet written as rows: Cy second, after someone else.
    const later = await broadcast(account, phone, 'Written in slices', 'sending');
    await q(
      `insert into broadcast_audiences (waba_account_id, broadcast_id, contact_ids, numbers, written)
       values ($1, $2, $3, $4, 0)`,
      [account, later, [999_999, cy], ['+14155550399', OLD]],
    );

    await numberChange(OLD, NEW);
    const rows = await q(
      'select id::int, whatsapp_number, contact_id::int from broadcast_messages where id = any($1) order by id',
      [[sent, queued]],
    );
    expect(rows).toEqual([
      { id: sent, whatsapp_number: OLD, contact_id: cy },
      { id: queued, whatsapp_number: NEW, contact_id: cy },
    ]);
    expect(
      await q('select contact_ids::int[], numbers from broadcast_audiences where broadcast_id = $1', [later]),
    ).toEqual([{ contact_ids: [999_999, cy], numbers: ['+14155550399', NEW] }]);

    // Someone new gets the old number and a later broadcast message: Cy's reply must never answer theirs.
    const eve = await addContact(user, { customer_name: 'Eve', whatsapp_number: OLD });
    const evesBroadcast = await broadcast(account, phone, 'To the new owner', 'completed');
    const eves = await message(account, evesBroadcast, eve, OLD, 'delivered');
    await q(`update broadcast_messages set accepted_at = now() - interval '10 minutes' where id = $1`, [
      eves,
    ]);

    const now = String(Math.floor(Date.now() / 1000));
    await fromNumber(NEW, { type: 'text', text: { body: 'Is the offer still on?' }, timestamp: now });
    const [reply] = await q<{ id: number; broadcast_message_id: number }>(
      'select id::int, broadcast_message_id::int from inbound_messages where wamid = $1',
      [`wamid.pwc-${wamids}`],
    );
    expect(reply).toEqual({ id: expect.any(Number), broadcast_message_id: sent });
    const answered = await q(
      'select id::int, reply_id::int from broadcast_messages where id = any($1) order by id',
      [[sent, eves]],
    );
    expect(answered).toEqual([
      { id: sent, reply_id: reply!.id },
      { id: eves, reply_id: null },
    ]);
  });
});

describe('a user whose BSUID changes (user_changed_user_id)', () => {
  it('moves the BSUID in the 2026 shape (system.previous_user_id → system.user_id)', async () => {
    const NUMBER = '+14155550321';
    const OLD_ID = 'US.3000000000000001';
    const NEW_ID = 'US.3000000000000002';
    const cy = await addContact(user, { customer_name: 'Cy', whatsapp_number: NUMBER });
    await post({
      contacts: [{ profile: { name: 'Cy' }, wa_id: NUMBER.slice(1), user_id: OLD_ID }],
      messages: [
        {
          from: NUMBER.slice(1),
          from_user_id: OLD_ID,
          id: 'wamid.cy-1',
          timestamp: '1',
          type: 'text',
          text: { body: 'Hi' },
        },
      ],
    });
    expect(await contact(cy)).toMatchObject({ bsuid: OLD_ID });
    await post({
      messages: [
        {
          from_user_id: NEW_ID,
          id: 'wamid.cy-2',
          timestamp: '2',
          type: 'system',
          system: {
            body: 'User changed',
            type: 'user_changed_user_id',
            previous_user_id: OLD_ID,
            user_id: NEW_ID,
          },
        },
      ],
    });
    expect(await contact(cy)).toMatchObject({ whatsapp_number: NUMBER, bsuid: NEW_ID });
    await post({
      contacts: [{ profile: { name: 'Cy', username: 'cy.k' }, user_id: NEW_ID }],
      messages: [
        { from_user_id: NEW_ID, id: 'wamid.cy-3', timestamp: '3', type: 'text', text: { body: 'Again' } },
      ],
    });
    expect(await contactOf('wamid.cy-3')).toMatchObject({ contact_id: cy });
  });
});

describe('opt-out words in interactive replies', () => {
  it('opts out on a STOP button_reply and back in on a START list_reply', async () => {
    const NUMBER = '+14155550331';
    const di = await addContact(user, { customer_name: 'Di', whatsapp_number: NUMBER });
    await fromNumber(NUMBER, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'offers-off', title: 'STOP' } },
    });
    expect(await contact(di)).toMatchObject({ opted_out: true });
    expect(await contactOf(`wamid.pwc-${wamids}`)).toMatchObject({ contact_id: di });
    await fromNumber(NUMBER, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: 'start', title: 'Send me offers again' } },
    });
    expect(await contact(di)).toMatchObject({ opted_out: false });
  });
});

describe('a message whose sender is named only in contacts[]', () => {
  it('is stored on the contact with that BSUID, and its STOP opts that contact out', async () => {
    const NUMBER = '+14155550341';
    const EVE_ID = 'US.4000000000000001';
    const eve = await addContact(user, { customer_name: 'Eve', whatsapp_number: NUMBER });
    await post({
      contacts: [{ profile: { name: 'Eve' }, wa_id: NUMBER.slice(1), user_id: EVE_ID }],
      messages: [
        {
          from: NUMBER.slice(1),
          from_user_id: EVE_ID,
          id: 'wamid.eve-1',
          timestamp: '1',
          type: 'text',
          text: { body: 'Hi' },
        },
      ],
    });
    await post({
      contacts: [{ profile: { name: 'Eve', username: 'eve.r' }, user_id: EVE_ID }],
      messages: [{ id: 'wamid.eve-2', timestamp: '2', type: 'text', text: { body: 'Stop' } }],
    });
    expect(await contactOf('wamid.eve-2')).toMatchObject({ contact_id: eve, from_number: EVE_ID });
    expect(await contact(eve)).toMatchObject({ opted_out: true });
  });
});
