import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postMessagesWebhook } from '../../webhooks/webhook-test-helpers';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender, type OpenedRequest } from './message-sender';
import { freshBroadcastRow } from '../broadcast-test-helpers';

/**
 * A message whose fate no status webhook settles does not hold its broadcast 'sending': the broadcast completes
 * once nothing is left to send, the message shows pending until MESSAGE_OUTCOME_TIMEOUT_SECONDS (2 s here), then
 * unknown; a status that comes later still updates it, and the counts follow (decisions 022, 069).
 */
const RECIPIENTS = 12;
/** MESSAGE_OUTCOME_TIMEOUT_SECONDS here. */
const TIMEOUT_SECONDS = 2;
/** The recipients whose request "dies" after it was written: never accepted, so no status ever comes. */
const LOST = new Set(['14155552003', '14155552007', '14155552011']);

let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let engine: BroadcastEngine;
let sender: MessageSender;

/** The real sender, except that the requests to LOST recipients end without an answer (and never reach Meta). */
class LosingSender extends MessageSender {
  override async open(token: string, phoneNumberId: string, body: { to?: string }): Promise<OpenedRequest> {
    const opened = await super.open(token, phoneNumberId, body);
    if (!body.to || !LOST.has(body.to) || 'notSent' in opened) return opened;
    return {
      abandon: opened.abandon,
      send() {
        opened.abandon();
        return Promise.resolve({ kind: 'unconfirmed', title: 'No answer: ECONNRESET' });
      },
    };
  }
}

const sandbox = (path: string, body: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

const report = async (id: number, query = '') =>
  (await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/${query}`, headers })).json();

const broadcastRow = (id: number) =>
  freshBroadcastRow(t.db.pool, id, 'status, accepted_count, delivered_count, read_count, failed_count');

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    read_rate: 0,
    pair_rate_window_ms: 0,
    // +1 numbers and a marketing template: Meta's US rule (131049) is not what this test is about.
    us_marketing_rule: false,
  });
  const owner = await signedInUser(t, 'outcomes@acme.test');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  const { rows } = await t.db.pool.query('select id from waba_accounts where waba_id = $1', [wabaId]);
  for (let i = 0; i < RECIPIENTS; i += 1) {
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [rows[0].id, `Person ${i}`, `+1415555${2000 + i}`],
    );
  }
  sender = new LosingSender(t.sandboxUrl, 'v21.0');
  engine = new BroadcastEngine({
    pool: t.db.pool,
    sender,
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
    unconfirmedTimeoutSeconds: TIMEOUT_SECONDS,
  });
});

afterAll(async () => {
  await engine?.stop();
  sender?.close();
  await t.close();
});

async function approvedTemplate(): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'outcome_check',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hello {{1}}.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  const id = created.json().id as number;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [id]);
    if (rows[0].status === 'APPROVED') return id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the template was not approved');
}

describe('a message whose status never arrives', () => {
  it("lets its broadcast complete, shows pending, then 'unknown' after the configured time, and a later status still counts", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: {
        name: 'Lost answers',
        template_id: await approvedTemplate(),
        recipients: { type: 'all', percentage: 100 },
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;

    // Everything sent: the lost ones are unconfirmed, awaiting their status.
    const startedAt = Date.now();
    await engine.tick();
    await engine.idle();
    await t.app.webhooks.idle();
    const states = async () =>
      (
        await t.db.pool.query<{ state: string; n: number }>(
          'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
          [id],
        )
      ).rows.reduce<Record<string, number>>((acc, row) => ({ ...acc, [row.state]: row.n }), {});
    expect((await states()).unconfirmed).toBe(LOST.size);
    // Nothing is left to send, so the broadcast completes without waiting for those statuses (they may take
    // Meta's 7-day retry window); until the timeout the report shows them pending, and no figure counts them
    // as unknown or failed.
    await engine.tick();
    const reached = RECIPIENTS - LOST.size;
    expect((await broadcastRow(id)).status).toBe('completed');
    // The last sends' 'delivered' webhooks follow their answers by the sandbox's 20 ms, after the engine is idle.
    for (let waited = 0; ((await states()).delivered ?? 0) < reached && waited < 1_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await t.app.webhooks.idle();
    }
    if (Date.now() - startedAt < TIMEOUT_SECONDS * 1_000 - 200) {
      const waiting = await report(id);
      expect(waiting.outcomes).toMatchObject({
        pending: LOST.size,
        unknown: 0,
        failed: 0,
        delivered: reached,
      });
      const listed = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
      expect(listed.results.find((r: { id: number }) => r.id === id)).toMatchObject({
        status: 'completed',
        unknown_percentage: 0,
        failed_percentage: 0,
      });
    }

    // After the outcome timeout they are unknown.
    const deadline = Date.now() + 15_000;
    while (((await states()).unknown ?? 0) < LOST.size && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await engine.tick();
      await engine.idle();
      await t.app.webhooks.idle();
    }
    expect(await broadcastRow(id)).toEqual({
      status: 'completed',
      accepted_count: reached,
      delivered_count: reached,
      read_count: 0,
      failed_count: 0,
    });
    expect(await states()).toEqual({ delivered: reached, unknown: LOST.size });
    const history = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
    expect(history.results.find((r: { id: number }) => r.id === id)).toMatchObject({
      status: 'completed',
      sent_percentage: 75,
      unknown_percentage: 25,
      failed_percentage: 0,
    });

    const unknown = await report(id, '?outcome=unknown');
    expect(unknown.outcomes).toMatchObject({ unknown: LOST.size, delivered: reached, pending: 0 });
    expect(unknown.results).toHaveLength(LOST.size);
    expect(unknown.results[0]).toMatchObject({
      outcome: 'unknown',
      error_code: null,
      error_title:
        'No delivery status arrived from WhatsApp within 2 seconds; the message may or may not have been delivered.',
    });
    expect(unknown.results[0].updated_at).not.toBeNull();

    // WhatsApp's status comes after all (a late webhook retry): the message is delivered, the counts follow.
    const late = unknown.results[0] as { id: number };
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        { id: 'wamid.late', status: 'delivered', timestamp: '9', biz_opaque_callback_data: String(late.id) },
      ],
    });
    expect(await broadcastRow(id)).toEqual({
      status: 'completed',
      accepted_count: reached + 1,
      delivered_count: reached + 1,
      read_count: 0,
      failed_count: 0,
    });
    const after = await report(id);
    expect(after.outcomes).toMatchObject({ unknown: LOST.size - 1, delivered: reached + 1 });
    const row = after.results.find((r: { id: number }) => r.id === late.id);
    expect(row).toMatchObject({ outcome: 'delivered', error_code: null, error_title: null });
  }, 60_000);
});
