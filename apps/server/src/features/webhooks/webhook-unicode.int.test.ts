import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { contactsUser } from '../contacts/contacts-test-helpers';
import { signBody } from './signature';

// Meta writes webhook JSON with non-ASCII as \uXXXX escapes and signs those exact bytes: the
// sandbox does the same, and Herald must check the signature over the bytes received, never over a re-encoding.
let t: TestApp;
let user: Awaited<ReturnType<typeof contactsUser>>;
let address = '';

const TEXT = 'Arrêtez, s’il vous plaît 😀 ☕';
const NAME = 'Zoë 🌸';

const sandbox = (path: string, body: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

const storedCount = async () =>
  Number((await t.db.pool.query('select count(*) from webhook_events')).rows[0].count);

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', { webhook_url: `${address}/webhooks/whatsapp` });
  user = await contactsUser(t, 'unicode@herald.test');
});
afterAll(() => t.close());

describe('webhooks with non-ASCII text, as Meta sends them', () => {
  it('accepts the sandbox’s escaped, signed inbound message and keeps the text intact', async () => {
    const before = await storedCount();
    const sent = await sandbox('/__sandbox/inbound', {
      phone_number_id: user.business.phone_number_id,
      from: '14155553001',
      text: TEXT,
      name: NAME,
    });
    expect(sent.status).toBe(200);
    const deadline = Date.now() + 5_000;
    while ((await storedCount()) === before) {
      if (Date.now() > deadline) throw new Error('the inbound webhook never arrived (or was refused)');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query(
      `select payload, processed_at, last_error from webhook_events order by id desc limit 1`,
    );
    const value = rows[0].payload.entry[0].changes[0].value;
    expect(value.messages[0].text.body).toBe(TEXT);
    expect(value.contacts[0].profile.name).toBe(NAME);
    expect(rows[0].processed_at).not.toBeNull();
    expect(rows[0].last_error).toBeNull();
  });

  it('checks the bytes received: escaped and UTF-8 bodies are different bytes with different signatures', async () => {
    const value = { messaging_product: 'whatsapp', note: TEXT };
    const utf8 = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: user.business.waba_id, changes: [{ field: 'unicode_probe', value }] }],
    });
    const escaped = utf8.replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(escaped).not.toBe(utf8);
    const post = (body: string, signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        payload: body,
      });
    const secret = t.config.META_APP_SECRET;
    expect((await post(escaped, signBody(secret, escaped))).statusCode).toBe(200);
    expect((await post(utf8, signBody(secret, utf8))).statusCode).toBe(200);
    // The same JSON value, signed over the other encoding: a receiver that re-serialised would accept it.
    expect((await post(utf8, signBody(secret, escaped))).statusCode).toBe(401);
    expect((await post(escaped, signBody(secret, utf8))).statusCode).toBe(401);
  });
});
