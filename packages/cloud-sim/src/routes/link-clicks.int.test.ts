import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { ReceivedWebhook, WebhookReceiver } from '../../test/webhook-receiver';
import { buildSandboxApp, DEFAULT_APP_SECRET } from '../app';
import { signPayload } from '../webhooks/sign-payload';

// A WhatsApp user tapping a link in a template message (`POST /__sandbox/messages/{wamid}/clicks`), and Meta's
// `marketing_messages_link_click` webhook, sent only for Marketing Messages API sends of the last 7 days.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const sim = sandboxForFile('link-clicks');
let url: string;
let receiver: WebhookReceiver;
let acc: SignedUp;

const UK = '447700900123';
const DAY_MS = 24 * 60 * 60 * 1000;

// A quick reply first, so the default button is found as the first URL button, not index 0.
const SALE_TEMPLATE = {
  name: 'spring_sale',
  language: 'en_US',
  category: 'MARKETING',
  components: [
    {
      type: 'BODY',
      text: 'Hi {{1}}, the spring sale is on at https://shop.example.com/spring?ref={{2}}. See you!',
      example: { body_text: [['Ana', 'wa']] },
    },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Stop offers' },
        { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/l/{{1}}', example: ['abc'] },
      ],
    },
  ],
};

const PLAIN_TEMPLATE = {
  name: 'plain_note',
  language: 'en_US',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Hello there, no links today.' }],
};

const saleSend = (linkParam: string) => ({
  messaging_product: 'whatsapp',
  to: UK,
  type: 'template',
  template: {
    name: 'spring_sale',
    language: { code: 'en_US' },
    components: [
      { type: 'body', parameters: ['Ana', 'wa-42'].map((text) => ({ type: 'text', text })) },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: linkParam }] },
    ],
  },
});

const plainSend = {
  messaging_product: 'whatsapp',
  to: UK,
  type: 'template',
  template: { name: 'plain_note', language: { code: 'en_US' } },
};

async function approved(template: Record<string, unknown>): Promise<void> {
  const created = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: template,
  });
  expect(created.status).toBe(200);
  const reviewed = await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  expect(reviewed.status).toBe(200);
}

/** Sends through `/marketing_messages` or `/messages`; answers the wamid. */
async function send(endpoint: 'marketing_messages' | 'messages', body: Record<string, unknown>) {
  const sent = await call(url, `/v21.0/${acc.phone_number_id}/${endpoint}`, {
    method: 'POST',
    token: acc.token,
    json: body,
  });
  expect(sent.status).toBe(200);
  return sent.body.messages[0].id as string;
}

const click = (wamid: string, body: Record<string, unknown> = {}) =>
  call(url, `/__sandbox/messages/${wamid}/clicks`, { method: 'POST', json: body });

const isClickWebhook = (hook: ReceivedWebhook) =>
  JSON.parse(hook.raw).entry[0].changes[0].value.user_actions !== undefined;

/** The click webhooks the sandbox has sent so far (recorded as it sends, whether or not yet received). */
async function clickDeliveries(): Promise<Json[]> {
  const state = (await call(url, '/__sandbox/state')).body;
  return state.webhook_deliveries.filter(
    (d: Json) => d.body.entry[0].changes[0].value.user_actions !== undefined,
  );
}

async function receivedClicks(count: number): Promise<ReceivedWebhook[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const clicks = receiver.received.filter(isClickWebhook);
    if (clicks.length >= count) return clicks;
    if (Date.now() > deadline) throw new Error(`expected ${count} click webhooks, got ${clicks.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

// After sandboxForFile's reset: fast statuses to the receiver, one business with both templates approved.
beforeEach(async () => {
  url = sim.url;
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      webhook_url: receiver.url,
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      read_rate: 0,
      pair_rate_window_ms: 0,
    },
  });
  receiver.received.length = 0;
  acc = await signUpWithToken(url);
  await approved(SALE_TEMPLATE);
  await approved(PLAIN_TEMPLATE);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /__sandbox/messages/{wamid}/clicks', () => {
  it('reports a button tap on a Marketing Messages API send: click_id on the URL and Meta’s webhook', async () => {
    const wamid = await send('marketing_messages', saleSend('tok-123'));
    const before = Math.floor(Date.now() / 1000);
    const tapped = await click(wamid);
    expect(tapped.status).toBe(200);
    expect(tapped.body).toEqual({ url: expect.any(String), click_id: expect.any(String), webhook: true });
    const clickId = tapped.body.click_id as string;
    expect(clickId).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(tapped.body.url).toBe(`https://shop.example.com/l/tok-123?click_id=${clickId}`);

    const [hook] = await receivedClicks(1);
    expect(hook!.headers['x-hub-signature-256']).toBe(signPayload(hook!.raw, DEFAULT_APP_SECRET));
    const body = JSON.parse(hook!.raw);
    // Exactly Meta's shape: no contacts, no message id, nothing naming the person.
    expect(body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: acc.waba_id,
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: expect.any(String), phone_number_id: acc.phone_number_id },
                user_actions: [
                  {
                    action_type: 'marketing_messages_link_click',
                    timestamp: expect.stringMatching(/^\d+$/),
                    marketing_messages_link_click_data: {
                      click_component: 'cta',
                      click_id: clickId,
                      tracking_token: expect.stringMatching(/^\S+$/),
                    },
                  },
                ],
              },
              field: 'messages',
            },
          ],
        },
      ],
    });
    const action = body.entry[0].changes[0].value.user_actions[0];
    expect(Number(action.timestamp)).toBeGreaterThanOrEqual(before);
    expect(Number(action.timestamp)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(hook!.raw).not.toContain(UK);
    expect(hook!.raw).not.toContain(wamid);
  });

  it('resolves a body tap to the first link of the body as sent, its query kept', async () => {
    const wamid = await send('marketing_messages', saleSend('tok-123'));
    const tapped = await click(wamid, { component: 'body' });
    expect(tapped.status).toBe(200);
    const clickId = tapped.body.click_id as string;
    // The sentence's closing full stop is not part of the link.
    expect(tapped.body.url).toBe(`https://shop.example.com/spring?ref=wa-42&click_id=${clickId}`);
    const [hook] = await receivedClicks(1);
    const data = JSON.parse(hook!.raw).entry[0].changes[0].value.user_actions[0];
    expect(data.marketing_messages_link_click_data).toMatchObject({
      click_component: 'body',
      click_id: clickId,
    });
  });

  it('opens the link of a /messages send without click_id or webhook', async () => {
    const wamid = await send('messages', saleSend('tok-9'));
    const tapped = await click(wamid, { component: 'cta', button: 1 });
    expect(tapped.status).toBe(200);
    expect(tapped.body).toEqual({ url: 'https://shop.example.com/l/tok-9', click_id: null, webhook: false });
    expect((await click(wamid, { component: 'body' })).body).toEqual({
      url: 'https://shop.example.com/spring?ref=wa-42',
      click_id: null,
      webhook: false,
    });
    expect(await clickDeliveries()).toEqual([]);
  });

  it('reports clicks on messages of the last 7 days only', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 8 * DAY_MS);
    const old = await send('marketing_messages', saleSend('old'));
    vi.setSystemTime(Date.now() + 2 * DAY_MS);
    const recent = await send('marketing_messages', saleSend('recent'));
    vi.useRealTimers();

    expect((await click(old)).body).toEqual({
      url: 'https://shop.example.com/l/old',
      click_id: null,
      webhook: false,
    });
    const within = await click(recent);
    expect(within.body.webhook).toBe(true);
    expect(within.body.url).toBe(`https://shop.example.com/l/recent?click_id=${within.body.click_id}`);
    expect(await clickDeliveries()).toHaveLength(1);
  });

  it('reports each tap as a new click', async () => {
    const wamid = await send('marketing_messages', saleSend('tok-123'));
    const first = (await click(wamid)).body;
    const second = (await click(wamid)).body;
    expect(first.click_id).not.toBe(second.click_id);
    expect(second.url).toBe(`https://shop.example.com/l/tok-123?click_id=${second.click_id}`);
    const hooks = await receivedClicks(2);
    const ids = hooks.map(
      (h) =>
        JSON.parse(h.raw).entry[0].changes[0].value.user_actions[0].marketing_messages_link_click_data
          .click_id,
    );
    expect(ids.sort()).toEqual([first.click_id, second.click_id].sort());
  });

  it('answers 404 for a wamid the sandbox never accepted', async () => {
    const unknown = await click('wamid.HBgLNDQ3NzAwOTAwMTIzFQIAERgSMDAwMDAwMDAwMDAwMDAwMDAwAA==');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('No accepted message with id wamid.');
  });

  it('answers 400 naming the field when there is no link to tap', async () => {
    const plain = await send('marketing_messages', plainSend);
    const noButton = await click(plain);
    expect(noButton.status).toBe(400);
    expect(noButton.body.error.message).toContain('button: template plain_note has no URL button');
    const noBodyLink = await click(plain, { component: 'body' });
    expect(noBodyLink.status).toBe(400);
    expect(noBodyLink.body.error.message).toContain('component: the body of template plain_note has no');

    const sale = await send('marketing_messages', saleSend('tok-1'));
    const quickReply = await click(sale, { button: 0 });
    expect(quickReply.status).toBe(400);
    expect(quickReply.body.error.message).toContain('no URL button at index 0');
    expect((await click(sale, { button: 'first' })).body.error.message).toContain('button must be');
    expect((await click(sale, { component: 'header' })).body.error.message).toContain(
      'component must be cta or body',
    );
    expect(await clickDeliveries()).toEqual([]);
  });

  it('is a control call: refused to callers elsewhere without the control token', async () => {
    const app = buildSandboxApp();
    try {
      const remote = await app.inject({
        method: 'POST',
        url: '/__sandbox/messages/wamid.x/clicks',
        remoteAddress: '203.0.113.7',
      });
      expect(remote.statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});
