import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';
import { contactsUser } from './contacts-test-helpers';

let t: TestApp;
let user: Awaited<ReturnType<typeof contactsUser>>;
let other: Awaited<ReturnType<typeof contactsUser>>;

const sandbox = (path: string, body: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

async function addContact(owner: typeof user, name: string, number: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/recipient/create/',
    headers: owner.headers,
    payload: { customer_name: name, whatsapp_number: number },
  });
  expect(response.statusCode).toBe(201);
}

const optedOut = async (owner: typeof user, number: string) =>
  (
    await t.db.pool.query(
      `select c.opted_out_at is not null as out from contacts c join waba_accounts w on w.id = c.waba_account_id
        where w.waba_id = $1 and c.whatsapp_number = $2`,
      [owner.business.waba_id, number],
    )
  ).rows[0]?.out as boolean | undefined;

/** Waits until the sandbox's webhook for an inbound message has reached Herald and been applied. */
async function inbound(owner: typeof user, from: string, content: Record<string, string>) {
  const before = Number((await t.db.pool.query('select count(*) from webhook_events')).rows[0].count);
  const sent = await sandbox('/__sandbox/inbound', {
    phone_number_id: owner.business.phone_number_id,
    from,
    ...content,
  });
  expect(sent.status).toBe(200);
  const deadline = Date.now() + 5_000;
  while (Number((await t.db.pool.query('select count(*) from webhook_events')).rows[0].count) === before) {
    if (Date.now() > deadline) throw new Error('the inbound webhook never arrived');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await t.app.webhooks.idle();
}

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', { webhook_url: `${address}/webhooks/whatsapp` });
  user = await contactsUser(t, 'optout@herald.test');
  other = await contactsUser(t, 'optout-other@herald.test');
  await addContact(user, 'Stopper', '+14155552001');
  await addContact(user, 'Tapper', '+14155552002');
  await addContact(user, 'Chatty', '+14155552003');
  await addContact(other, 'Same number elsewhere', '+14155552001');
});
afterAll(() => t.close());

describe('opt-outs from the messages webhook', () => {
  it('opts out a contact who replies STOP, in that account only', async () => {
    await inbound(user, '14155552001', { text: '  Stop ' });
    expect(await optedOut(user, '+14155552001')).toBe(true);
    expect(await optedOut(other, '+14155552001')).toBe(false);
    // The contacts list says so, for the user to see who will be left out.
    const listed = (
      await t.app.inject({ method: 'GET', url: '/recipient/create/?search=Stopper', headers: user.headers })
    ).json().results[0];
    expect(Date.parse(listed.opted_out_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('opts out on a quick-reply STOP button, and not on an ordinary message', async () => {
    await inbound(user, '14155552002', { button_payload: 'STOP', button_text: 'Stop promotions' });
    await inbound(user, '14155552003', { text: 'Please stop by the shop tomorrow' });
    expect(await optedOut(user, '+14155552002')).toBe(true);
    expect(await optedOut(user, '+14155552003')).toBe(false);
  });

  it('opts back in on START', async () => {
    await inbound(user, '14155552001', { text: 'START' });
    expect(await optedOut(user, '+14155552001')).toBe(false);
  });

  it('opts out in Spanish and French by default, whatever the case and accents', async () => {
    await addContact(user, 'Lucia', '+34600000001');
    await addContact(user, 'Amelie', '+33600000001');
    await inbound(user, '34600000001', { text: 'BAJA' });
    await inbound(user, '33600000001', { text: 'Arret' });
    expect(await optedOut(user, '+34600000001')).toBe(true);
    expect(await optedOut(user, '+33600000001')).toBe(true);
    await inbound(user, '34600000001', { text: 'Alta' });
    expect(await optedOut(user, '+34600000001')).toBe(false);
  });

  it("follows the account's own opt-out and opt-in words from Settings, and no longer the defaults it dropped", async () => {
    await addContact(user, 'Custom', '+14155552009');
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/settings/',
      headers: user.headers,
      payload: { opt_out_words: ['Nie wieder', 'stop'], opt_in_words: ['wieder da'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await inbound(user, '14155552009', { text: 'nie   WIEDER' });
    expect(await optedOut(user, '+14155552009')).toBe(true);
    await inbound(user, '14155552009', { text: 'START' });
    expect(await optedOut(user, '+14155552009')).toBe(true);
    await inbound(user, '14155552009', { text: 'Wieder da' });
    expect(await optedOut(user, '+14155552009')).toBe(false);
    await inbound(user, '14155552009', { text: 'unsubscribe' });
    expect(await optedOut(user, '+14155552009')).toBe(false);
    // Another account keeps Herald's defaults.
    await addContact(other, 'Elsewhere', '+14155552010');
    await inbound(other, '14155552010', { text: 'nie wieder' });
    expect(await optedOut(other, '+14155552010')).toBe(false);
  });

  it('opts out a recipient whose message failed with 131050', async () => {
    const response = await postMessagesWebhook(t, user.business.waba_id, {
      statuses: [
        {
          id: 'wamid.unknown',
          status: 'failed',
          timestamp: '1',
          recipient_id: '14155552003',
          errors: [{ code: 131050, title: 'User stopped marketing messages' }],
        },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(await optedOut(user, '+14155552003')).toBe(true);
  });
});
