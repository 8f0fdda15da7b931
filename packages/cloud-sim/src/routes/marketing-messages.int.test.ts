import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';
import { SandboxState } from '../state';

// Meta's Marketing Messages API for WhatsApp in the sandbox: onboarding (terms per portfolio, eligibility per
// WABA, the partner's intent request) and `/marketing_messages` sends.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let dir: string;
let logFile: string;

const UK = '447700900123';

const templateBody = (name: string, extra: Record<string, unknown> = {}) => ({
  messaging_product: 'whatsapp',
  to: UK,
  type: 'template',
  template: { name, language: { code: 'en_US' } },
  ...extra,
});

const sendMarketing = (acc: SignedUp, body: Record<string, unknown>) =>
  call(url, `/v21.0/${acc.phone_number_id}/marketing_messages`, {
    method: 'POST',
    token: acc.token,
    json: body,
  });

async function approvedTemplate(acc: SignedUp, name: string, category: string): Promise<void> {
  const created = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: { name, language: 'en_US', category, components: [{ type: 'BODY', text: 'Hello there.' }] },
  });
  expect(created.status).toBe(200);
  const reviewed = await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  expect(reviewed.status).toBe(200);
}

const wabaStatus = async (acc: SignedUp) =>
  (
    await call(url, `/v21.0/${acc.waba_id}?fields=marketing_messages_onboarding_status`, {
      token: acc.token,
    })
  ).body.marketing_messages_onboarding_status;

/** A business whose portfolio did not accept the terms at sign-up. */
async function notOnboarded(): Promise<SignedUp> {
  await call(url, '/__sandbox/config', { method: 'POST', json: { mm_api_terms_at_signup: false } });
  const acc = await signUpWithToken(url);
  await call(url, '/__sandbox/config', { method: 'POST', json: { mm_api_terms_at_signup: true } });
  return acc;
}

async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-mm-'));
  logFile = join(dir, 'calls.jsonl');
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, logFile, stateDir: null });
  url = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  await call(url, '/__sandbox/reset', { method: 'POST' });
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      review_delay_ms: 600_000,
      webhook_url: receiver.url,
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      read_rate: 0,
      pair_rate_window_ms: 0,
      mm_api_terms_at_signup: true,
    },
  });
  receiver.received.length = 0;
});

describe('onboarding', () => {
  it('onboards a business that signs up, terms and all, by default', async () => {
    const acc = await signUpWithToken(url);
    expect(await wabaStatus(acc)).toBe('ONBOARDED');
    const today = new Date().toISOString().slice(0, 10);
    const owner = await call(url, `/v21.0/${acc.waba_id}?fields=id,owner_business_info`, {
      token: acc.token,
    });
    expect(owner.body).toEqual({
      id: acc.waba_id,
      owner_business_info: {
        id: acc.business_id,
        name: 'Sandbox Business 1',
        marketing_messages_onboarding_status: { status: 'TERM_OF_SERVICE_SIGNED', time: today },
      },
    });
    const business = await call(
      url,
      `/v21.0/${acc.business_id}?fields=marketing_messages_onboarding_status`,
      {
        token: acc.token,
      },
    );
    expect(business.body).toEqual({
      id: acc.business_id,
      marketing_messages_onboarding_status: { status: 'TERM_OF_SERVICE_SIGNED', time: today },
    });
    // Not among the WABA's default fields.
    const plain = await call(url, `/v21.0/${acc.waba_id}`, { token: acc.token });
    expect(plain.body.marketing_messages_onboarding_status).toBeUndefined();
  });

  it('leaves the terms unsigned with mm_api_terms_at_signup false', async () => {
    const config = await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { mm_api_terms_at_signup: false },
    });
    expect(config.body.mm_api_terms_at_signup).toBe(false);
    const acc = await signUpWithToken(url);
    expect(await wabaStatus(acc)).toBe('ELIGIBLE');
    const business = await call(
      url,
      `/v21.0/${acc.business_id}?fields=marketing_messages_onboarding_status`,
      {
        token: acc.token,
      },
    );
    expect(business.body.marketing_messages_onboarding_status).toEqual({ status: 'NOT_STARTED' });
    const bad = await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { mm_api_terms_at_signup: 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it('sends the intent request once: REQUEST_SENT, then 1752041', async () => {
    const acc = await notOnboarded();
    const path = `/v21.0/${acc.business_id}/onboard_partners_to_mm_lite`;
    const first = await call(url, path, { method: 'POST', token: acc.token, json: {} });
    expect(first.status).toBe(200);
    expect(first.body.id).toMatch(/^\d+$/);
    const business = await call(
      url,
      `/v21.0/${acc.business_id}?fields=marketing_messages_onboarding_status`,
      {
        token: acc.token,
      },
    );
    expect(business.body.marketing_messages_onboarding_status.status).toBe('REQUEST_SENT');
    expect(await wabaStatus(acc)).toBe('ELIGIBLE');

    const again = await call(url, path, { method: 'POST', token: acc.token, json: {} });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: 1752041,
      message: 'Your business has already sent this request',
    });
    // Someone else's portfolio is as unknown as one that does not exist.
    const other = await signUpWithToken(url);
    const foreign = await call(url, path, { method: 'POST', token: other.token, json: {} });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('announces the accepted terms to each eligible WABA with MM_LITE_TERMS_SIGNED', async () => {
    const acc = await notOnboarded();
    const accepted = await call(url, `/__sandbox/businesses/${acc.business_id}/marketing-messages-terms`, {
      method: 'POST',
      json: {},
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.marketing_messages_onboarding_status.status).toBe('TERM_OF_SERVICE_SIGNED');
    expect(await wabaStatus(acc)).toBe('ONBOARDED');
    const [hook] = await receiver.waitFor(1);
    expect(hook!.headers['x-hub-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const body = JSON.parse(hook!.raw);
    expect(body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: acc.waba_id,
          time: expect.any(Number),
          changes: [
            {
              field: 'account_update',
              value: {
                event: 'MM_LITE_TERMS_SIGNED',
                waba_info: { waba_id: acc.waba_id, owner_business_id: acc.business_id },
              },
            },
          ],
        },
      ],
    });
    const unknown = await call(url, '/__sandbox/businesses/999/marketing-messages-terms', {
      method: 'POST',
      json: {},
    });
    expect(unknown.status).toBe(404);
  });

  it('shows an ineligible WABA’s reason and refuses its marketing sends', async () => {
    const acc = await signUpWithToken(url);
    await approvedTemplate(acc, 'spring_sale', 'MARKETING');
    const set = await call(url, `/__sandbox/wabas/${acc.waba_id}/marketing-messages`, {
      method: 'POST',
      json: { eligibility: 'INELIGIBLE_COUNTRY_NOT_SUPPORTED' },
    });
    expect(set.status).toBe(200);
    expect(await wabaStatus(acc)).toBe('INELIGIBLE_COUNTRY_NOT_SUPPORTED');
    const refused = await sendMarketing(acc, templateBody('spring_sale'));
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(131055);

    const bad = await call(url, `/__sandbox/wabas/${acc.waba_id}/marketing-messages`, {
      method: 'POST',
      json: { eligibility: 'MAYBE' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('eligibility');
    await call(url, `/__sandbox/wabas/${acc.waba_id}/marketing-messages`, {
      method: 'POST',
      json: { eligibility: 'ELIGIBLE' },
    });
    expect(await wabaStatus(acc)).toBe('ONBOARDED');
  });

  it('loads a state file written before MM API onboarding as NOT_STARTED and eligible', () => {
    const state = new SandboxState();
    const { waba } = state.createBusiness({ appId: 'a', businessName: 'Old', phoneDigits: '447700900001' });
    const { marketingMessages: _dropped, ...older } = state.records();
    state.marketingMessages.setTerms(waba.businessId, 'TERM_OF_SERVICE_SIGNED');
    state.restore(older);
    expect(state.marketingMessages.termsOf(waba.businessId)).toEqual({ status: 'NOT_STARTED' });
    expect(state.marketingMessages.wabaStatus(waba.id, waba.businessId)).toBe('ELIGIBLE');
  });
});

describe('POST /{phone-number-id}/marketing_messages', () => {
  let acc: SignedUp;

  beforeEach(async () => {
    acc = await signUpWithToken(url);
    await approvedTemplate(acc, 'spring_sale', 'MARKETING');
    await approvedTemplate(acc, 'order_ready', 'UTILITY');
  });

  it('accepts a marketing template and records the endpoint', async () => {
    const sent = await sendMarketing(acc, templateBody('spring_sale', { message_activity_sharing: true }));
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: UK, wa_id: UK }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
    const viaCloud = await call(url, `/v21.0/${acc.phone_number_id}/messages`, {
      method: 'POST',
      token: acc.token,
      json: templateBody('order_ready'),
    });
    expect(viaCloud.status).toBe(200);

    const log = await call(url, `/__sandbox/messages?phone_number_id=${acc.phone_number_id}`);
    expect(log.body.data.map((m: Json) => [m.template.name, m.endpoint])).toEqual([
      ['spring_sale', 'marketing_messages'],
      ['order_ready', 'messages'],
    ]);
    const mm = await call(url, '/__sandbox/messages?endpoint=marketing_messages');
    expect(mm.body.total).toBe(1);
    expect(mm.body.data[0].wamid).toBe(sent.body.messages[0].id);
    expect((await call(url, '/__sandbox/messages?endpoint=other')).status).toBe(400);

    // Priced at the marketing rate and reported as Meta reports an MM API send: marketing_lite (MM API get-started).
    const status = await until(() =>
      receiver.received
        .map((h) => JSON.parse(h.raw))
        .flatMap((b: Json) => b.entry[0].changes[0].value.statuses ?? [])
        .find((s: Json) => s.id === sent.body.messages[0].id && s.status === 'sent'),
    );
    expect(status.pricing.category).toBe('marketing_lite');
    expect(status.conversation.origin.type).toBe('marketing_lite');
    const calls = await until(async () => {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text.includes(`/${acc.phone_number_id}/marketing_messages`) && text;
    });
    expect(calls).toContain('"message_activity_sharing":true');
  });

  it('refuses a utility template: only marketing templates', async () => {
    const sent = await sendMarketing(acc, templateBody('order_ready'));
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({
      message: '(#131055) Method not allowed',
      type: 'OAuthException',
      code: 131055,
      error_data: {
        messaging_product: 'whatsapp',
        details: 'Only marketing template messages are supported',
      },
    });
  });

  it('refuses a message that is not a template with (#100)', async () => {
    const sent = await sendMarketing(acc, {
      messaging_product: 'whatsapp',
      to: UK,
      type: 'text',
      text: { body: 'hi' },
    });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({
      message: '(#100) Invalid parameter',
      type: 'OAuthException',
      code: 100,
      error_data: { messaging_product: 'whatsapp', details: 'Message must be a template message.' },
    });
  });

  it('checks message_activity_sharing is a boolean', async () => {
    const sent = await sendMarketing(acc, templateBody('spring_sale', { message_activity_sharing: 'yes' }));
    expect(sent.status).toBe(400);
    expect(sent.body.error.code).toBe(100);
    expect(sent.body.error.message).toContain('message_activity_sharing');
  });

  it('refuses a WABA whose portfolio has not accepted the terms', async () => {
    const other = await notOnboarded();
    await approvedTemplate(other, 'spring_sale', 'MARKETING');
    const sent = await sendMarketing(other, templateBody('spring_sale'));
    expect(sent.status).toBe(400);
    const message = 'You must accept the Marketing Messages Lite API terms to use the API.';
    expect(sent.body.error).toMatchObject({
      message: `(#200) ${message}`,
      code: 131055,
      error_data: { messaging_product: 'whatsapp', details: message },
    });
    const accepted = await call(url, '/__sandbox/messages?endpoint=marketing_messages');
    expect(accepted.body.total).toBe(0);
  });

  it('answers an unknown number like /messages does', async () => {
    const sent = await call(url, `/v21.0/123456789012345/marketing_messages`, {
      method: 'POST',
      token: acc.token,
      json: templateBody('spring_sale'),
    });
    expect(sent.status).toBe(400);
    expect(sent.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});
