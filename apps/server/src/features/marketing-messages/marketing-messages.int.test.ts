import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApprovedTemplate,
  createBroadcast,
  DEFAULT_TEMPLATE,
  setFrequencyCap,
} from '../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';
import { signedInBusiness } from '../../../../../test-support/signed-in-business';
import type { TestApp } from '../../../../../test-support/test-app';

/**
 * Against the sandbox over HTTP: a business that signs up through Herald accepts Meta's Marketing Messages API
 * terms in the same Embedded Signup flow, so its marketing broadcasts go through `/marketing_messages` while
 * utility ones stay on `/messages`; the endpoint follows a template's latest category and the account's setting;
 * an account that signs up without the terms starts onboarding from Herald and is onboarded by Meta's webhook.
 */
let scene: SendingScene;
let t: TestApp;

const sandbox = (path: string, body?: object) => scene.sandbox(path, body);

const until = (check: () => Promise<boolean>, what: string, timeoutMs?: number) =>
  scene.until(check, what, timeoutMs);

/** The numbers the test sends go to (not contacts of the broadcasts). */
const TEST_SENDS = ['447911123459', '447911123458'];

interface LoggedMessage {
  to: string;
  template?: { name: string };
  endpoint: string;
}

/** The sandbox's log of what it accepted from a number: each message with the endpoint that took it. */
async function acceptedBy(phoneNumberId: string): Promise<LoggedMessage[]> {
  return (
    (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}`)) as { data: LoggedMessage[] }
  ).data;
}

const business = (email: string, contacts: string[] = []) => signedInBusiness(t, email, contacts);

async function broadcastTo(
  who: Awaited<ReturnType<typeof business>>,
  templateId: number,
  name: string,
): Promise<number> {
  const id = await createBroadcast(t, who.headers, {
    name,
    template_id: templateId,
    phone_number_id: who.phoneNumberId,
    recipients: { type: 'all', percentage: 100 },
  });
  await until(
    async () =>
      (await t.db.pool.query('select status from broadcasts where id = $1', [id])).rows[0].status ===
      'completed',
    `broadcast ${name} to complete`,
  );
  return id;
}

beforeAll(async () => {
  scene = await startSendingScene();
  t = scene.t;
});

afterAll(() => scene?.close());

describe('marketing broadcasts through Meta’s Marketing Messages API', () => {
  it('an account onboarded at sign-up sends marketing through /marketing_messages and utility through /messages, by the template’s latest category and the setting', async () => {
    const who = await business('mm-onboarded@herald.test', ['+447700900301', '+447700900302']);
    // Four marketing broadcasts to the same two people: no frequency cap in the way.
    await setFrequencyCap(t, who.headers, null);
    const status = await t.app.inject({ method: 'GET', url: '/marketing-messages/', headers: who.headers });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ state: 'onboarded', meta_status: 'ONBOARDED', can_start: false });

    const marketing = await createApprovedTemplate(t, who.headers, {
      ...DEFAULT_TEMPLATE,
      name: 'autumn_offer',
      category: 'MARKETING',
    });
    const utility = await createApprovedTemplate(t, who.headers, { ...DEFAULT_TEMPLATE, name: 'order_note' });

    await broadcastTo(who, marketing, 'Offer');
    await broadcastTo(who, utility, 'Note');
    let log = await acceptedBy(who.phoneNumberId);
    // The broadcasts' messages (the test sends go to numbers of their own, below).
    const endpointsOf = (template: string) =>
      log.filter((m) => m.template?.name === template && !TEST_SENDS.includes(m.to)).map((m) => m.endpoint);
    expect(endpointsOf('autumn_offer')).toEqual(['marketing_messages', 'marketing_messages']);
    expect(endpointsOf('order_note')).toEqual(['messages', 'messages']);
    // A test send goes where the broadcast's messages would.
    for (const [template, to] of [
      [marketing, '+447911123459'],
      [utility, '+447911123458'],
    ] as const) {
      const test = await t.app.inject({
        method: 'POST',
        url: '/broadcast/test/',
        headers: who.headers,
        payload: { template_id: template, phone_number_id: who.phoneNumberId, to },
      });
      expect(test.json()).toMatchObject({ accepted: true });
    }
    log = await acceptedBy(who.phoneNumberId);
    const byNumber = (to: string) => log.filter((m) => m.to === to).map((m) => m.endpoint);
    expect(byNumber('447911123459')).toEqual(['marketing_messages']);
    expect(byNumber('447911123458')).toEqual(['messages']);

    // Meta re-categorises the utility template as marketing (template_category_update, completed): Herald
    // stores the new category and the next batch of it goes through /marketing_messages, as Meta now requires.
    await sandbox('/__sandbox/webhook-events', {
      event: 'template_category_update:done',
      phone_number_id: who.phoneNumberId,
      template_name: 'order_note',
    });
    await until(
      async () =>
        (await t.db.pool.query('select category from templates where id = $1', [utility])).rows[0]
          .category === 'MARKETING',
      'the category update',
    );
    await broadcastTo(who, utility, 'Note again');
    log = await acceptedBy(who.phoneNumberId);
    expect(endpointsOf('order_note')).toEqual([
      'messages',
      'messages',
      'marketing_messages',
      'marketing_messages',
    ]);

    // The account chose the Cloud API for marketing: /messages again.
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/settings/',
      headers: who.headers,
      payload: { marketing_via_mm_api: false },
    });
    expect(saved.statusCode).toBe(200);
    await broadcastTo(who, marketing, 'Offer via Cloud API');
    log = await acceptedBy(who.phoneNumberId);
    expect(endpointsOf('autumn_offer')).toEqual([
      'marketing_messages',
      'marketing_messages',
      'messages',
      'messages',
    ]);
  });

  it('an account that signed up without the terms starts onboarding from Herald, and Meta’s webhook onboards it', async () => {
    await sandbox('/__sandbox/config', { mm_api_terms_at_signup: false });
    const who = await business('mm-later@herald.test', ['+447700900311']);
    await sandbox('/__sandbox/config', { mm_api_terms_at_signup: true });
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: '/marketing-messages/', headers: who.headers })).json();
    expect(await read()).toMatchObject({ state: 'not_onboarded', meta_status: 'ELIGIBLE', can_start: true });

    const marketing = await createApprovedTemplate(t, who.headers, {
      ...DEFAULT_TEMPLATE,
      name: 'winter_offer',
      category: 'MARKETING',
    });
    await broadcastTo(who, marketing, 'Before onboarding');
    expect((await acceptedBy(who.phoneNumberId)).map((m) => m.endpoint)).toEqual(['messages']);

    const started = await t.app.inject({
      method: 'POST',
      url: '/marketing-messages/onboarding/',
      headers: who.headers,
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ state: 'pending', can_start: false });
    expect(started.json().requested_at).not.toBeNull();
    const again = await t.app.inject({
      method: 'POST',
      url: '/marketing-messages/onboarding/',
      headers: who.headers,
    });
    // Asked already: nothing more to ask, the same answer.
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ state: 'pending', requested_at: started.json().requested_at });

    // The portfolio's admin accepts the terms in WhatsApp Manager: Meta's MM_LITE_TERMS_SIGNED webhook.
    const businessId = (
      await t.db.pool.query('select business_id from waba_accounts where id = $1', [who.accountId])
    ).rows[0].business_id as string;
    expect(businessId).toBeTruthy();
    await sandbox(`/__sandbox/businesses/${businessId}/marketing-messages-terms`, {});
    await until(
      async () =>
        (await t.db.pool.query('select mm_api_status from waba_accounts where id = $1', [who.accountId]))
          .rows[0].mm_api_status === 'ONBOARDED',
      'the MM_LITE_TERMS_SIGNED webhook',
    );
    expect(await read()).toMatchObject({ state: 'onboarded', routes_marketing: true });
    await broadcastTo(who, marketing, 'After onboarding');
    expect((await acceptedBy(who.phoneNumberId)).map((m) => m.endpoint)).toEqual([
      'messages',
      'marketing_messages',
    ]);
  });

  it('an ineligible account says why and cannot start onboarding', async () => {
    await sandbox('/__sandbox/config', { mm_api_terms_at_signup: false });
    const who = await business('mm-ineligible@herald.test', []);
    await sandbox('/__sandbox/config', { mm_api_terms_at_signup: true });
    await sandbox(`/__sandbox/wabas/${who.owner.business.waba_id}/marketing-messages`, {
      eligibility: 'INELIGIBLE_COUNTRY_NOT_SUPPORTED',
    });
    const read = await t.app.inject({ method: 'GET', url: '/marketing-messages/', headers: who.headers });
    expect(read.json()).toMatchObject({
      state: 'not_eligible',
      reason: 'The business’s country is not supported yet.',
      can_start: false,
    });
    const start = await t.app.inject({
      method: 'POST',
      url: '/marketing-messages/onboarding/',
      headers: who.headers,
    });
    expect(start.statusCode).toBe(409);
  });

  it('when Meta no longer takes the account’s marketing (131055), the messages go again through /messages, none lost', async () => {
    const who = await business('mm-lapsed@herald.test', ['+447700900321', '+447700900322', '+447700900323']);
    const marketing = await createApprovedTemplate(t, who.headers, {
      ...DEFAULT_TEMPLATE,
      name: 'spring_offer',
      category: 'MARKETING',
    });
    // Herald still has it onboarded; Meta now says it may not use the API.
    await sandbox(`/__sandbox/wabas/${who.owner.business.waba_id}/marketing-messages`, {
      eligibility: 'INELIGIBLE_INACTIVE_OR_RESTRICTED',
    });
    const id = await broadcastTo(who, marketing, 'Lapsed');
    const log = await acceptedBy(who.phoneNumberId);
    expect(log.map((m) => m.endpoint)).toEqual(['messages', 'messages', 'messages']);
    expect(new Set(log.map((m) => m.to)).size).toBe(3);
    const { rows } = await t.db.pool.query(
      'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
      [id],
    );
    expect(rows.every((row) => row.state !== 'failed')).toBe(true);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(3);
    const stored = await t.db.pool.query('select mm_api_status from waba_accounts where id = $1', [
      who.accountId,
    ]);
    expect(stored.rows[0].mm_api_status).toBeNull();
    // Settings asks Meta again and says why.
    const read = await t.app.inject({ method: 'GET', url: '/marketing-messages/', headers: who.headers });
    expect(read.json()).toMatchObject({ state: 'not_eligible', routes_marketing: false });
  });
});
