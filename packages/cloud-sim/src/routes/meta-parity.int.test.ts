import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

// Where the sandbox used to differ from Meta's documented API, each point as Meta answers it: one status per
// notification, a new portfolio's 250 limit, messages other than templates inside a customer service window
// (131047 outside it), and the media URL that serves the bytes.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;

const CUSTOMER = '447700900123';

const sendAs = (body: Json) =>
  call(url, `/v21.0/${account.phone_number_id}/messages`, {
    method: 'POST',
    token: account.token,
    json: { messaging_product: 'whatsapp', to: CUSTOMER, ...body },
  });

function statuses(): Json[] {
  return receiver.received.flatMap((h) =>
    JSON.parse(h.raw).entry.flatMap((e: Json) =>
      e.changes.flatMap((c: Json) => (c.field === 'messages' ? (c.value.statuses ?? []) : [])),
    ),
  );
}

async function until(ok: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function openServiceWindow(): Promise<void> {
  const inbound = await call(url, '/__sandbox/inbound', {
    method: 'POST',
    json: { phone_number_id: account.phone_number_id, from: CUSTOMER, text: 'Is my order on its way?' },
  });
  expect(inbound.status).toBe(200);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 600_000 });
  url = sandbox.url;
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

beforeEach(async () => {
  await call(url, '/__sandbox/reset', { method: 'POST' });
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      webhook_url: receiver.url,
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      read_rate: 1,
    },
  });
  account = await signUpWithToken(url, { phone_number: '+1 555 078 3881' });
  receiver.received.length = 0;
});

describe('a new business portfolio', () => {
  it('starts at Meta’s 250 users a day, in both the current and the deprecated field', async () => {
    const res = await call(
      url,
      `/v21.0/${account.phone_number_id}?fields=messaging_limit_tier,whatsapp_business_manager_messaging_limit`,
      { token: account.token },
    );
    expect(res.body).toEqual({
      id: account.phone_number_id,
      messaging_limit_tier: 'TIER_250',
      whatsapp_business_manager_messaging_limit: 'TIER_250',
    });
    await call(url, `/__sandbox/portfolios/${account.business_id}`, {
      method: 'POST',
      json: { tier: 'TIER_10K' },
    });
    const after = await call(url, `/v21.0/${account.phone_number_id}?fields=messaging_limit_tier`, {
      token: account.token,
    });
    expect(after.body.messaging_limit_tier).toBe('TIER_10K');
  });
});

describe('messages other than templates', () => {
  it('are sent inside a customer service window: text, media by link, buttons and a list, all free', async () => {
    await openServiceWindow();
    receiver.received.length = 0;
    const bodies: Json[] = [
      { type: 'text', text: { body: 'It left the warehouse this morning.', preview_url: false } },
      { type: 'image', image: { link: 'https://example.com/parcel.jpg', caption: 'Your parcel' } },
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Is this address right?' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
              { type: 'reply', reply: { id: 'no', title: 'No, change it' } },
            ],
          },
        },
      },
      {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Pick a delivery slot' },
          action: {
            button: 'Slots',
            sections: [
              {
                title: 'Tomorrow',
                rows: [
                  { id: 'am', title: 'Morning' },
                  { id: 'pm', title: 'Afternoon' },
                ],
              },
            ],
          },
        },
      },
    ];
    const wamids: string[] = [];
    for (const body of bodies) {
      // Pair rate: one message a user every few seconds by default; these tests are about the window.
      await call(url, '/__sandbox/config', { method: 'POST', json: { pair_rate_window_ms: 0 } });
      const res = await sendAs(body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.messages[0]).toMatchObject({ message_status: 'accepted' });
      wamids.push(res.body.messages[0].id);
    }
    await until(() => statuses().filter((s) => s.status === 'read').length >= wamids.length);
    const delivered = statuses().filter((s) => s.status === 'delivered');
    expect(delivered.map((s) => s.id).sort()).toEqual([...wamids].sort());
    for (const s of delivered) {
      expect(s.pricing).toEqual({
        billable: false,
        pricing_model: 'PMP',
        category: 'service',
        type: 'free_customer_service',
      });
    }
    expect(statuses().some((s) => s.status === 'failed')).toBe(false);
    const log = await call(url, '/__sandbox/messages');
    expect(log.body.data.map((m: Json) => m.type)).toEqual(['text', 'image', 'interactive', 'interactive']);
  });

  it('outside a window are accepted, then fail with 131047 in their status, as Meta’s do', async () => {
    const res = await sendAs({ type: 'text', text: { body: 'Hello again!' } });
    expect(res.status).toBe(200);
    const wamid = res.body.messages[0].id;
    await until(() => statuses().some((s) => s.id === wamid && s.status === 'failed'));
    const failed = statuses().find((s) => s.id === wamid && s.status === 'failed');
    expect(failed.errors).toEqual([
      expect.objectContaining({ code: 131047, title: 'Re-engagement message' }),
    ]);
    expect(statuses().some((s) => s.id === wamid && s.status === 'delivered')).toBe(false);
  });

  it('name the field they get wrong', async () => {
    await openServiceWindow();
    const cases: Array<[Json, string]> = [
      [{ type: 'text', text: {} }, 'text.body'],
      [{ type: 'text', text: { body: 'x'.repeat(4097) } }, 'text.body must be at most 4096'],
      [{ type: 'image', image: {} }, 'image.id or image.link'],
      [{ type: 'image', image: { id: '999' } }, 'image.id was not uploaded'],
      [
        { type: 'audio', audio: { link: 'https://e.com/a.ogg', caption: 'no' } },
        'audio cannot have a caption',
      ],
      [
        {
          type: 'interactive',
          interactive: { type: 'button', body: { text: 'Q' }, action: { buttons: [] } },
        },
        'interactive.action.buttons must hold 1 to 3',
      ],
      [{ type: 'location', location: { latitude: 91, longitude: 0 } }, 'location.latitude'],
      [{ type: 'poll', poll: {} }, 'type must be template or one of'],
    ];
    for (const [body, words] of cases) {
      const res = await sendAs(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe(100);
      expect(JSON.stringify(res.body.error), JSON.stringify(body)).toContain(words);
    }
  });
});

describe('status notifications', () => {
  it('carry one status each by default, so a client that reads statuses[0] misses none', async () => {
    // The sandbox's default pace of statuses (a few at a time): no load, so nothing is batched.
    await call(url, '/__sandbox/config', {
      method: 'POST',
      json: { status_delays_ms: { sent: 100, delivered: 300, read: 800 } },
    });
    const template = await call(url, `/v21.0/${account.waba_id}/message_templates`, {
      method: 'POST',
      token: account.token,
      json: {
        name: 'ready',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Your order is ready.' }],
      },
    });
    await call(url, `/__sandbox/templates/${template.body.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    receiver.received.length = 0;
    const sent = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        call(url, `/v21.0/${account.phone_number_id}/messages`, {
          method: 'POST',
          token: account.token,
          json: {
            messaging_product: 'whatsapp',
            to: `4477009001${n}0`,
            type: 'template',
            template: { name: 'ready', language: { code: 'en_US' } },
          },
        }),
      ),
    );
    expect(sent.every((r) => r.status === 200)).toBe(true);
    await until(() => statuses().length >= 15);
    const perPost = receiver.received
      .map((h) => JSON.parse(h.raw).entry)
      .filter((entry: Json) => entry[0].changes[0].field === 'messages')
      .map(
        (entry: Json) => entry.length * entry[0].changes.length * entry[0].changes[0].value.statuses.length,
      );
    expect(perPost).toEqual(Array(15).fill(1));
  });
});

describe('business-scoped user ids', () => {
  it('name every user beside their number: statuses, contacts[] and inbound messages, one id per user', async () => {
    await openServiceWindow();
    await until(() => receiver.received.some((h) => h.raw.includes('"messages":[')));
    const inbound = receiver.received
      .map((h) => JSON.parse(h.raw).entry[0].changes[0])
      .find((c: Json) => c.field === 'messages' && c.value.messages)?.value;
    const bsuid = inbound.contacts[0].user_id;
    expect(bsuid).toMatch(/^GB\.\d{20}$/);
    expect(inbound.contacts[0].wa_id).toBe(CUSTOMER);
    expect(inbound.messages[0]).toMatchObject({ from: CUSTOMER, from_user_id: bsuid });

    receiver.received.length = 0;
    const res = await sendAs({ type: 'text', text: { body: 'Thanks for writing.' } });
    const wamid = res.body.messages[0].id;
    await until(() => statuses().filter((s) => s.id === wamid).length >= 3);
    for (const s of statuses().filter((s) => s.id === wamid)) {
      expect(s).toMatchObject({ recipient_id: CUSTOMER, recipient_user_id: bsuid });
    }
    const change = JSON.parse(receiver.received[0]!.raw).entry[0].changes[0].value;
    expect(change.contacts).toEqual([{ wa_id: CUSTOMER, user_id: bsuid }]);

    // Another business's portfolio knows the same person by another id.
    const other = await signUpWithToken(url, { phone_number: '+1 555 078 3999' });
    await call(url, '/__sandbox/inbound', {
      method: 'POST',
      json: { phone_number_id: other.phone_number_id, from: CUSTOMER, text: 'Hi' },
    });
    await until(() => receiver.received.some((h) => h.raw.includes(other.phone_number_id)));
    const elsewhere = receiver.received.find((h) => h.raw.includes(other.phone_number_id))!;
    const otherId = JSON.parse(elsewhere.raw).entry[0].changes[0].value.contacts[0].user_id;
    expect(otherId).toMatch(/^GB\.\d{20}$/);
    expect(otherId).not.toBe(bsuid);
  });

  it('leave a failed status to a number without one, as Meta’s does', async () => {
    const res = await sendAs({ type: 'text', text: { body: 'Outside any window' } });
    const wamid = res.body.messages[0].id;
    await until(() => statuses().some((s) => s.id === wamid && s.status === 'failed'));
    const failed = statuses().find((s) => s.id === wamid);
    expect(failed.recipient_id).toBe(CUSTOMER);
    expect(failed).not.toHaveProperty('recipient_user_id');
    const change = receiver.received
      .map((h) => JSON.parse(h.raw).entry[0].changes[0].value)
      .find((v: Json) => v.statuses?.[0]?.id === wamid);
    expect(change).not.toHaveProperty('contacts');
  });
});

describe('a media URL', () => {
  it('serves the uploaded bytes to a caller with a token for that number, as Meta’s lookaside URL does', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', 'image/png');
    form.set('file', new Blob([png], { type: 'image/png' }), 'dot.png');
    const upload = await fetch(`${url}/v21.0/${account.phone_number_id}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { id } = (await upload.json()) as { id: string };
    const node = await call(url, `/v21.0/${id}`, { token: account.token });
    expect(node.body).toMatchObject({ mime_type: 'image/png', file_size: png.length });

    const download = await fetch(node.body.url, { headers: { authorization: `Bearer ${account.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(png)).toBe(true);

    const anonymous = await fetch(node.body.url);
    expect(anonymous.status).toBe(401);
    const stranger = await signUpWithToken(url, { phone_number: '+1 555 078 3999' });
    const other = await fetch(node.body.url, { headers: { authorization: `Bearer ${stranger.token}` } });
    expect(other.status).toBe(404);
  });
});
