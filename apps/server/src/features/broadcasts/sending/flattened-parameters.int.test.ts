import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUntil } from '../../../../../../test-support/engine-until';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { signedInUser } from '../../auth/auth-test-helpers';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender } from './message-sender';

// End to end: contact values with line breaks, tabs and runs of spaces (which the sandbox, as
// Meta, refuses with 132018) are delivered flattened; an empty one takes the template's sample.
let t: TestApp;
let headers: Record<string, string>;
let phoneNumberId: string;
let engine: BroadcastEngine;
let sender: MessageSender;

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

const until = (check: () => Promise<boolean>, what: string, timeoutMs?: number) =>
  runUntil(t, engine, check, what, timeoutMs);

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
  });
  const owner = await signedInUser(t, 'flatten@herald.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  phoneNumberId = owner.business.phone_number_id;
  sender = new MessageSender(t.sandboxUrl, 'v25.0');
  engine = new BroadcastEngine({ pool: t.db.pool, sender, secrets: new SecretBox(t.config.ENCRYPTION_KEY!) });
});

afterAll(async () => {
  await engine?.stop();
  sender?.close();
  await t.close();
});

describe('contact values Meta would refuse', () => {
  it('are sent flattened, and an empty one as the template’s sample, none refused', async () => {
    const wabaAccountId = (
      await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [headers['x-waba-id']])
    ).rows[0].id;
    const contacts = [
      ['Ada\tLovelace', '+447700900101', '12 High St\r\nFlat 3\n\n     London'],
      ['Grace  Hopper ', '+447700900102', ' \n\t\u200B '],
    ];
    for (const [name, number, addr] of contacts) {
      await t.db.pool.query(
        'insert into contacts (waba_account_id, name, whatsapp_number, address) values ($1, $2, $3, $4)',
        [wabaAccountId, name, number, addr],
      );
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: {
        name: 'delivery_note',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          {
            type: 'BODY',
            text: 'Hi {{1}}, we deliver to {{2}} today.',
            example: { body_text: [['Ana', '1 Main Street']] },
          },
        ],
        dynamic_variables: { body_variable: { '1': 'name', '2': 'address' } },
      },
    });
    expect(created.statusCode).toBe(201);
    const templateId = created.json().id;
    await until(
      async () =>
        (await t.db.pool.query('select status from templates where id = $1', [templateId])).rows[0].status ===
        'APPROVED',
      'the template’s approval',
    );

    const broadcast = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'Deliveries', template_id: templateId, recipients: { type: 'all', percentage: 100 } },
    });
    expect(broadcast.statusCode).toBe(201);
    const id = broadcast.json().id;
    await until(
      async () =>
        (await t.db.pool.query('select status from broadcasts where id = $1', [id])).rows[0].status ===
        'completed',
      'the broadcast to complete',
    );
    const states = await t.db.pool.query(
      'select state, error_title from broadcast_messages where broadcast_id = $1',
      [id],
    );
    expect(states.rows.filter((r) => r.state === 'failed')).toEqual([]);

    const log = (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=100`)) as {
      data: Array<{ to: string; template: { name: string }; parameters: Record<string, string[]> }>;
    };
    const sent = Object.fromEntries(
      log.data.filter((m) => m.template.name === 'delivery_note').map((m) => [m.to, m.parameters.body]),
    );
    expect(sent).toEqual({
      '447700900101': ['Ada Lovelace', '12 High St Flat 3 London'],
      '447700900102': ['Grace Hopper', '1 Main Street'],
    });
  });
});
