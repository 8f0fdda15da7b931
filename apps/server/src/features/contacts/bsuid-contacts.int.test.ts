import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUntil, sandboxControl } from '../../../../../test-support/engine-until';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { SecretBox } from '../../security/secret-box';
import { signedInUser } from '../auth/auth-test-helpers';
import { BroadcastEngine } from '../broadcasts/sending/broadcast-engine';
import { MessageSender } from '../broadcasts/sending/message-sender';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';

/**
 * Against the sandbox over HTTP: customers whom WhatsApp shows by username, with a
 * business-scoped user id (BSUID) and no phone number. Their STOP holds for later broadcasts, a broadcast reaches
 * them with `recipient`, their statuses and replies reach their contact, and a change of BSUID follows them.
 */
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let phoneNumberId: string;
let accountId: number;
let templateId: number;
let engine: BroadcastEngine;

const SAM = 'US.1000000000000001';
const SAM_NEW = 'US.1000000000000002';
const ANN = { number: '+14155550201' };

const sandbox = sandboxControl(() => t.sandboxUrl);

const eventCount = async () =>
  Number((await t.db.pool.query('select count(*) from webhook_events')).rows[0].count);

/** Sends through the sandbox's control API and waits until its webhook has reached Herald and been applied. */
async function fromSandbox(path: string, body: object) {
  const before = await eventCount();
  await sandbox(path, { phone_number_id: phoneNumberId, ...body });
  const deadline = Date.now() + 5_000;
  while ((await eventCount()) === before) {
    if (Date.now() > deadline) throw new Error('the webhook never arrived');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await t.app.webhooks.idle();
}

const until = (check: () => Promise<boolean>, timeoutMs?: number) =>
  runUntil(t, engine, check, undefined, timeoutMs);

const contactsOf = async () =>
  (
    await t.db.pool.query(
      `select name, whatsapp_number, bsuid, username, opted_out_at is not null as opted_out
         from contacts where waba_account_id = $1 order by id`,
      [accountId],
    )
  ).rows;

/** Creates a broadcast to every contact and waits until each of its messages is delivered. */
async function broadcastToAll(name: string) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: { name, template_id: templateId, recipients: { type: 'all', percentage: 100 } },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as number;
  await until(async () => {
    const { rows } = await t.db.pool.query(
      `select count(*)::int as n, count(*) filter (where state = 'delivered')::int as delivered
         from broadcast_messages where broadcast_id = $1`,
      [id],
    );
    return rows[0].n > 0 && rows[0].n === rows[0].delivered;
  });
  const { rows } = await t.db.pool.query<{ whatsapp_number: string; wamid: string; id: number }>(
    'select id::int, whatsapp_number, wamid from broadcast_messages where broadcast_id = $1 order by id',
    [id],
  );
  return { id, messages: rows };
}

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 30, read: 60 },
    pair_rate_window_ms: 0,
    read_rate: 0,
  });
  const owner = await signedInUser(t, 'bsuid@acme.test');
  wabaId = owner.business.waba_id;
  phoneNumberId = owner.business.phone_number_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  accountId = (await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [wabaId]))
    .rows[0].id;
  engine = new BroadcastEngine({
    pool: t.db.pool,
    sender: new MessageSender(t.sandboxUrl, 'v21.0'),
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
  });
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order is ready.' }],
    },
  });
  expect(template.statusCode, template.body).toBe(201);
  templateId = template.json().id;
  await until(
    async () =>
      (await t.db.pool.query('select status from templates where id = $1', [templateId])).rows[0].status ===
      'APPROVED',
  );
  const ann = await t.app.inject({
    method: 'POST',
    url: '/recipient/create/',
    headers,
    payload: { customer_name: 'Ann', whatsapp_number: ANN.number },
  });
  expect(ann.statusCode, ann.body).toBe(201);
}, 60_000);
afterAll(() => t.close());

describe('customers known only by their BSUID', () => {
  it('makes an opted-out contact of an unknown BSUID that replies STOP, and the next broadcast leaves it out', async () => {
    await fromSandbox('/__sandbox/inbound', { user_id: SAM, username: 'sam.k', name: 'Sam', text: 'STOP' });
    expect(await contactsOf()).toEqual([
      { name: 'Ann', whatsapp_number: ANN.number, bsuid: null, username: null, opted_out: false },
      { name: 'Sam', whatsapp_number: SAM, bsuid: SAM, username: 'sam.k', opted_out: true },
    ]);
    // The account's total counts the new contact (the Customers list and the Dashboard read it).
    const list = await t.app.inject({ method: 'GET', url: '/recipient/create/', headers });
    expect(list.json().count).toBe(2);
    expect(
      list.json().results.find((c: { recipient_name: string }) => c.recipient_name === 'Sam'),
    ).toMatchObject({
      whatsapp_number: SAM,
      bsuid: SAM,
      username: 'sam.k',
    });
    // The same STOP delivered again creates nothing more.
    await fromSandbox('/__sandbox/inbound', { user_id: SAM, username: 'sam.k', name: 'Sam', text: 'stop' });
    expect(await contactsOf()).toHaveLength(2);

    const { id, messages } = await broadcastToAll('After the STOP');
    expect(messages.map((m) => m.whatsapp_number)).toEqual([ANN.number]);
    const sent = (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}`)) as {
      data: Array<{ to: string; biz_opaque_callback_data: string | null }>;
    };
    const toSam = sent.data.filter((m) => m.to === SAM);
    expect(toSam).toEqual([]);
    expect(id).toBeGreaterThan(0);
  }, 60_000);

  it('sends with recipient once they opt back in; their BSUID-only status and reply reach their contact', async () => {
    await fromSandbox('/__sandbox/inbound', { user_id: SAM, username: 'sam.k', text: 'START' });
    expect((await contactsOf()).find((c) => c.bsuid === SAM)?.opted_out).toBe(false);

    const { id, messages } = await broadcastToAll('Back in');
    const toSam = messages.find((m) => m.whatsapp_number === SAM)!;
    // Delivered: the sandbox's statuses for it carried recipient_user_id and no recipient_id.
    expect(toSam).toBeDefined();
    const logged = (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}`)) as {
      data: Array<{ to: string; wamid: string }>;
    };
    expect(logged.data.find((m) => m.wamid === toSam.wamid)?.to).toBe(SAM);
    const statuses = (
      await t.db.pool.query(`select payload from webhook_events where payload::text like $1`, [
        `%${toSam.wamid}%`,
      ])
    ).rows
      .flatMap(
        (r) =>
          (
            r.payload as {
              entry: Array<{
                changes: Array<{ value: { statuses?: Array<{ id: string; status: string }> } }>;
              }>;
            }
          ).entry[0]!.changes[0]!.value.statuses ?? [],
      )
      .filter((s) => s.id === toSam.wamid);
    expect(statuses.map((s) => s.status)).toContain('delivered');
    for (const status of statuses) {
      expect(status).toMatchObject({ recipient_user_id: SAM });
      expect(status).not.toHaveProperty('recipient_id');
    }

    await fromSandbox('/__sandbox/inbound', { user_id: SAM, text: 'Thanks, on my way' });
    const reply = (
      await t.db.pool.query(
        `select i.from_number, c.name, i.broadcast_message_id::int
           from inbound_messages i left join contacts c on c.id = i.contact_id where i.body = 'Thanks, on my way'`,
      )
    ).rows;
    expect(reply).toEqual([{ from_number: SAM, name: 'Sam', broadcast_message_id: toSam.id }]);
    const report = await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/`, headers });
    expect(report.json().replied).toBe(1);
  }, 60_000);

  it('refuses an authentication template to a BSUID-only contact, with the reason, and sends it to numbers', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: {
        name: 'login_code',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Your code is ready.' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const authId = created.json().id as number;
    await until(
      async () =>
        (await t.db.pool.query('select status from templates where id = $1', [authId])).rows[0].status ===
        'APPROVED',
    );
    // Herald's copy says AUTHENTICATION (the sandbox's review does not model one-time-password buttons).
    await t.db.pool.query(`update templates set category = 'AUTHENTICATION' where id = $1`, [authId]);
    const broadcast = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'Codes', template_id: authId, recipients: { type: 'all', percentage: 100 } },
    });
    expect(broadcast.statusCode, broadcast.body).toBe(201);
    const id = broadcast.json().id as number;
    await until(async () => {
      const { rows } = await t.db.pool.query(
        `select count(*) filter (where state in ('queued', 'sending'))::int as open, count(*)::int as n
           from broadcast_messages where broadcast_id = $1`,
        [id],
      );
      return rows[0].n === 2 && rows[0].open === 0;
    });
    const rows = (
      await t.db.pool.query(
        'select whatsapp_number, state, error_title from broadcast_messages where broadcast_id = $1 order by id',
        [id],
      )
    ).rows;
    expect(rows).toEqual([
      { whatsapp_number: ANN.number, state: expect.not.stringMatching(/failed/), error_title: null },
      {
        whatsapp_number: SAM,
        state: 'failed',
        error_title: 'Authentication templates cannot be sent to a customer known only by username',
      },
    ]);
  }, 60_000);

  it('learns a numbered contact’s BSUID, then matches its BSUID-only reply and 131050 failure to it', async () => {
    // Ann received the broadcasts above: their statuses named her BSUID beside her number, as Meta's do since
    // 2026, and Herald kept it on her contact.
    const annId = (await contactsOf()).find((c) => c.name === 'Ann')?.bsuid;
    expect(annId).toMatch(/^US\.\d{20}$/);
    await postMessagesWebhook(t, wabaId, {
      contacts: [{ profile: { name: 'Ann', username: 'ann.b' }, wa_id: ANN.number.slice(1), user_id: annId }],
      messages: [
        {
          from: ANN.number.slice(1),
          from_user_id: annId,
          id: 'wamid.ann-1',
          timestamp: '1',
          type: 'text',
          text: { body: 'Hi' },
        },
      ],
    });
    expect((await contactsOf()).find((c) => c.name === 'Ann')).toMatchObject({
      whatsapp_number: ANN.number,
      bsuid: annId,
      username: 'ann.b',
    });
    await postMessagesWebhook(t, wabaId, {
      contacts: [{ profile: { name: 'Ann', username: 'ann.b' }, user_id: annId }],
      messages: [
        {
          from_user_id: annId,
          id: 'wamid.ann-2',
          timestamp: '2',
          type: 'text',
          text: { body: 'Hello again' },
        },
      ],
    });
    const stored = await t.db.pool.query(
      `select c.name from inbound_messages i join contacts c on c.id = i.contact_id where i.wamid = 'wamid.ann-2'`,
    );
    expect(stored.rows).toEqual([{ name: 'Ann' }]);

    await postMessagesWebhook(t, wabaId, {
      statuses: [
        {
          id: 'wamid.unknown',
          status: 'failed',
          timestamp: '3',
          recipient_user_id: annId,
          errors: [{ code: 131050, title: 'User stopped marketing messages' }],
        },
      ],
    });
    expect((await contactsOf()).find((c) => c.name === 'Ann')?.opted_out).toBe(true);
    expect(await contactsOf()).toHaveLength(2);
  });

  it('follows a change of BSUID (user_changed_user_id): later messages from the new id reach the same contact', async () => {
    await fromSandbox('/__sandbox/user-id-change', { user_id: SAM, new_user_id: SAM_NEW });
    expect((await contactsOf()).find((c) => c.name === 'Sam')).toMatchObject({
      whatsapp_number: SAM_NEW,
      bsuid: SAM_NEW,
    });
    await fromSandbox('/__sandbox/inbound', { user_id: SAM_NEW, text: 'STOP' });
    const contacts = await contactsOf();
    expect(contacts).toHaveLength(2);
    expect(contacts.find((c) => c.name === 'Sam')?.opted_out).toBe(true);
  });
});
