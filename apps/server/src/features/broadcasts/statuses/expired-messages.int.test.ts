import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedTemplate, createBroadcast } from '../../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../../test-support/sending-scene';
import type { TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';

/**
 * Expired, against the sandbox over HTTP: a marketing template with a 12-hour time-to-live goes through the
 * Marketing Messages API; one recipient's phone is off. The sandbox's clock moves 12 hours on and WhatsApp drops
 * that message with a failed status. Herald tells the expiry by time (Meta names no code for it): the message is
 * Expired — not failed, not "not on WhatsApp" — in the report (outcome, filter, reason), the history, the
 * Dashboard, and a retarget reaches exactly that recipient. A failure reported before the time-to-live is not an
 * expiry.
 */
const TWELVE_HOURS = 43_200;
const OFF = '+447911125502';

let scene: SendingScene;
let t: TestApp;
const sandbox = (path: string, body?: object) => scene.sandbox(path, body);
const until = (check: () => Promise<boolean>, what: string) => scene.until(check, what);
let headers: Record<string, string>;
let phoneNumberId: string;
let template: number;

beforeAll(async () => {
  scene = await startSendingScene();
  t = scene.t;
  const owner = await signedInUser(t, 'expired@herald.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  phoneNumberId = owner.business.phone_number_id;
  const accountId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id as number;
  for (const [i, number] of ['+447911125501', OFF].entries()) {
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [accountId, `Person ${i + 1}`, number],
    );
  }
  template = await createApprovedTemplate(t, headers, {
    name: 'flash_sale',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Our flash sale ends tonight.' }],
    message_send_ttl_seconds: TWELVE_HOURS,
  });
  await sandbox(`/__sandbox/recipients/${OFF.slice(1)}`, { reachable: false });
});

afterAll(() => scene?.close());

const api = async <T>(url: string) => (await t.app.inject({ method: 'GET', url, headers })).json() as T;
const stateOf = async (broadcastId: number, number: string) =>
  (
    await t.db.pool.query<{ state: string }>(
      'select state from broadcast_messages where broadcast_id = $1 and whatsapp_number = $2',
      [broadcastId, number],
    )
  ).rows[0]?.state;

describe('a message WhatsApp drops at the end of its time-to-live', () => {
  it('is Expired in the report, the history and the Dashboard, and a retarget reaches exactly it', async () => {
    const id = await createBroadcast(t, headers, {
      name: 'Flash sale',
      template_id: template,
      phone_number_id: phoneNumberId,
      recipients: { type: 'all', percentage: 100 },
    });
    // Delivered, then read or not (the sandbox reads a share of messages).
    const reached = async (broadcastId: number, number: string) =>
      ['delivered', 'read'].includes((await stateOf(broadcastId, number)) ?? '');
    await until(() => reached(id, '+447911125501'), 'the reachable one to be delivered');
    await until(async () => (await stateOf(id, OFF)) === 'sent', 'the phone that is off to stay sent');
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${phoneNumberId}&to=${OFF.slice(1)}`,
    )) as {
      data: Array<{ endpoint: string; ttl_seconds: number }>;
    };
    expect(log.data[0]).toMatchObject({ endpoint: 'marketing_messages', ttl_seconds: TWELVE_HOURS });

    // A second short of the time-to-live nothing happens; then WhatsApp drops it.
    expect(await sandbox('/__sandbox/clock', { advance_seconds: TWELVE_HOURS - 1 })).toMatchObject({
      expired: 0,
    });
    expect(await sandbox('/__sandbox/clock', { advance_seconds: 1 })).toMatchObject({ expired: 1 });
    await until(async () => (await stateOf(id, OFF)) === 'expired', 'the message to expire');

    const report = await api<{
      outcomes: Record<string, number>;
      failure_reasons: Array<{ outcome: string; title: string; count: number }>;
      results: Array<{ whatsapp_number: string; outcome: string }>;
    }>(`/broadcast/${id}/recipients/`);
    expect(report.outcomes).toMatchObject({ expired: 1, failed: 0, not_on_whatsapp: 0 });
    expect(report.outcomes.delivered! + report.outcomes.read!).toBe(1);
    expect(report.failure_reasons).toEqual([
      expect.objectContaining({ outcome: 'expired', title: 'Expired', count: 1 }),
    ]);
    const filtered = await api<{ count: number; results: Array<{ whatsapp_number: string }> }>(
      `/broadcast/${id}/recipients/?outcome=expired`,
    );
    expect(filtered.results.map((r) => r.whatsapp_number)).toEqual([OFF]);

    const history = await api<{
      results: Array<{ id: number; expired_percentage: number; failed_percentage: number }>;
      totals: { expired: number; failed: number };
    }>('/broadcast/create/');
    expect(history.results.find((row) => row.id === id)).toMatchObject({
      expired_percentage: 50,
      failed_percentage: 0,
    });
    expect(history.totals).toMatchObject({ expired: 1, failed: 0 });

    const dashboard = await api<{ expired: { count: number }; cards: Array<{ key: string; value: number }> }>(
      '/dashboard/',
    );
    expect(dashboard.expired.count).toBe(1);
    expect(dashboard.cards.find((card) => card.key === 'failed_messages')?.value).toBe(0);

    // "New broadcast to those whose message expired": exactly that one.
    await sandbox(`/__sandbox/recipients/${OFF.slice(1)}`, { reachable: true });
    const again = await createBroadcast(t, headers, {
      name: 'Flash sale, again',
      template_id: template,
      phone_number_id: phoneNumberId,
      audience: { kind: 'broadcast_recipients', broadcast_id: id, filter: { outcome: 'expired' } },
    });
    await until(() => reached(again, OFF), 'the retarget to reach the phone now on');
    const { rows } = await t.db.pool.query(
      'select whatsapp_number from broadcast_messages where broadcast_id = $1',
      [again],
    );
    expect(rows.map((r) => r.whatsapp_number)).toEqual([OFF]);
  });

  it('is not told of a failure WhatsApp reports before the time-to-live: a number not on WhatsApp stays so', async () => {
    const numberAccount = (await t.db.pool.query('select waba_account_id from broadcasts limit 1')).rows[0]
      .waba_account_id as number;
    // The sandbox's rule: a number ending 0000 is not on WhatsApp (131026), reported at once.
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [numberAccount, 'Nowhere', '+447911120000'],
    );
    const id = await createBroadcast(t, headers, {
      name: 'Flash sale to all',
      template_id: template,
      phone_number_id: phoneNumberId,
      recipients: { type: 'all', percentage: 100 },
    });
    await until(
      async () => (await stateOf(id, '+447911120000')) === 'not_on_whatsapp',
      'the number not on WhatsApp to be told',
    );
  });
});
