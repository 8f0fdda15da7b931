import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postMessagesWebhook } from '../../webhooks/webhook-test-helpers';
import { settleMessages } from './message-settle';

/**
 * A message retried after a passing failure (a refused connection, a 5xx) keeps that attempt's error while it
 * waits; once WhatsApp accepts or reports it, the report and the export must not show the old error beside
 * 'Delivered' or 'Read'. A failure WhatsApp reports still shows its own.
 */
let t: TestApp;
let wabaId: string;
let accountId: number;
let broadcastId: number;

const OUTAGE = 'Cloud API unreachable: ECONNREFUSED';

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'retried@acme.test');
  wabaId = owner.business.waba_id;
  const { rows } = await t.db.pool.query<{ account: number; phone: number }>(
    `select w.id::int as account, p.id::int as phone from waba_accounts w
       join phone_numbers p on p.waba_account_id = w.id where w.waba_id = $1 limit 1`,
    [wabaId],
  );
  accountId = rows[0]!.account;
  const broadcast = await t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                             scheduled_at, status, total_recipients, started_at)
     values ($1, $2, 'hello', 'en_US', 'retried', '{"type":"all","percentage":100}', now(), 'sending', 3, now())
     returning id::int`,
    [accountId, rows[0]!.phone],
  );
  broadcastId = broadcast.rows[0]!.id;
});

afterAll(() => t?.close());

/** A row as a retried attempt leaves it: requested again, the previous attempt's error still on it. */
async function retriedRow(number: string, state = 'sending', wamid: string | null = null): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts, requested_at,
                                     error_code, error_title, wamid, accepted_at)
     values ($1, $2, $3, $4, 2, now(), 0, $5, $6, case when $6::text is null then null else now() end)
     returning id::int`,
    [accountId, broadcastId, number, state, OUTAGE, wamid],
  );
  return rows[0]!.id;
}

const errorOf = async (id: number) =>
  (await t.db.pool.query('select state, error_code, error_title from broadcast_messages where id = $1', [id]))
    .rows[0];

describe("an earlier attempt's error", () => {
  it('is gone once WhatsApp accepts the message', async () => {
    const id = await retriedRow('+447911000001');
    await settleMessages(t.db.pool, accountId, [
      { id, state: 'accepted', wamid: 'wamid.retried.1', at: new Date() },
    ]);
    expect(await errorOf(id)).toEqual({ state: 'accepted', error_code: null, error_title: null });
  });

  it('is gone once a status says the message was sent, delivered or read', async () => {
    const ids = await Promise.all(
      ['+447911000002', '+447911000003'].map((n, i) => retriedRow(n, 'accepted', `wamid.retried.${i + 2}`)),
    );
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        { id: 'wamid.retried.2', status: 'delivered', timestamp: '1', recipient_id: '447911000002' },
        { id: 'wamid.retried.3', status: 'read', timestamp: '1', recipient_id: '447911000003' },
      ].map((s, i) => ({ ...s, biz_opaque_callback_data: String(ids[i]) })),
    });
    expect(await Promise.all(ids.map(errorOf))).toEqual([
      { state: 'delivered', error_code: null, error_title: null },
      { state: 'read', error_code: null, error_title: null },
    ]);
  });

  it("gives way to WhatsApp's own reason when the message fails", async () => {
    const id = await retriedRow('+447911000004', 'accepted', 'wamid.retried.4');
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        {
          id: 'wamid.retried.4',
          status: 'failed',
          timestamp: '1',
          recipient_id: '447911000004',
          biz_opaque_callback_data: String(id),
          errors: [{ code: 131000, title: 'Something went wrong' }],
        },
      ],
    });
    expect(await errorOf(id)).toEqual({
      state: 'failed',
      error_code: 131000,
      error_title: 'Something went wrong',
    });
  });
});
