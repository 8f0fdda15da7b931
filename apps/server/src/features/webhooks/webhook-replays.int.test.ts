import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { contactsUser } from '../contacts/contacts-test-helpers';
import { postSignedWebhook } from './webhook-test-helpers';

// Replays with a visible consequence: an old STOP replayed after the person's START must not opt them out again.
let t: TestApp;
let user: Awaited<ReturnType<typeof contactsUser>>;

beforeAll(async () => {
  t = await startTestApp();
  user = await contactsUser(t, 'replays@herald.test');
  for (let i = 0; i < 10; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recipient/create/',
      headers: user.headers,
      payload: { customer_name: `Person ${i}`, whatsapp_number: `+1415555300${i}` },
    });
    expect(response.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

/** An inbound text from `from` (digits), with its own message id, as Meta notifies it. */
function inboundBody(from: string, text: string, id: string): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: user.business.waba_id,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: '15550000000',
                phone_number_id: user.business.phone_number_id,
              },
              contacts: [{ profile: { name: 'Someone' }, wa_id: from }],
              messages: [{ from, id, timestamp: '1700000000', type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
}

const deliver = (body: string) => postSignedWebhook(t, body);

async function optedOutNumbers(): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ whatsapp_number: string }>(
    `select c.whatsapp_number from contacts c join waba_accounts w on w.id = c.waba_account_id
      where w.waba_id = $1 and c.opted_out_at is not null order by 1`,
    [user.business.waba_id],
  );
  return rows.map((row) => row.whatsapp_number);
}

describe('replayed webhooks', () => {
  it('keeps a START that came after a STOP when the STOP is replayed among new events', async () => {
    const stop = inboundBody('14155553000', 'STOP', 'wamid.stop-0');
    const start = inboundBody('14155553000', 'START', 'wamid.start-0');
    expect((await deliver(stop)).statusCode).toBe(200);
    await t.app.webhooks.idle();
    expect(await optedOutNumbers()).toEqual(['+14155553000']);
    expect((await deliver(start)).statusCode).toBe(200);
    await t.app.webhooks.idle();
    expect(await optedOutNumbers()).toEqual([]);

    // Meta retries the old STOP (three times) while new STOPs of five other people arrive, all at once.
    const fresh = [1, 2, 3, 4, 5].map((i) => inboundBody(`1415555300${i}`, 'STOP', `wamid.stop-${i}`));
    const responses = await Promise.all(
      [stop, ...fresh.slice(0, 2), stop, ...fresh.slice(2), stop].map(deliver),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200));
    await t.app.webhooks.idle();
    expect(await optedOutNumbers()).toEqual([1, 2, 3, 4, 5].map((i) => `+1415555300${i}`));
  });
});
