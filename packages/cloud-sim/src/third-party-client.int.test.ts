import { normalizeWebhook, verifySignature } from '@kapso/whatsapp-cloud-api/server';
import { WhatsAppClient } from '@kapso/whatsapp-cloud-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../test/sandbox-client';
import type { SignedUp } from '../test/sandbox-client';
import { startWebhookReceiver } from '../test/webhook-receiver';
import type { WebhookReceiver } from '../test/webhook-receiver';
import { DEFAULT_APP_SECRET } from './app';
import { startSandbox } from './server';
import type { RunningSandbox } from './server';

// A maintained Cloud API client nobody here wrote (Kapso's TypeScript SDK), pointed at the sandbox: what it
// sends and how it reads the webhooks are its own, so a shape Herald's client happens to accept cannot hide a
// difference from Meta's API.

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let account: SignedUp;
let client: WhatsAppClient;

const CUSTOMERS = ['447700900201', '447700900202', '447700900203', '447700900204'];

/** Every webhook as the client library reads it, each checked against its signature first. */
function normalized() {
  return receiver.received.map((hook) => {
    const signatureHeader = hook.headers['x-hub-signature-256'];
    expect(
      verifySignature({
        appSecret: DEFAULT_APP_SECRET,
        rawBody: hook.raw,
        signatureHeader: typeof signatureHeader === 'string' ? signatureHeader : undefined,
      }),
    ).toBe(true);
    return normalizeWebhook(JSON.parse(hook.raw));
  });
}

async function until(ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, reviewDelayMs: 600_000 });
  await call(sandbox.url, '/__sandbox/config', {
    method: 'POST',
    json: {
      webhook_url: receiver.url,
      status_delays_ms: { sent: 20, delivered: 40, read: 60 },
      read_rate: 1,
      pair_rate_window_ms: 0,
    },
  });
  account = await signUpWithToken(sandbox.url, { phone_number: '+1 555 078 3881' });
  client = new WhatsAppClient({ accessToken: account.token, baseUrl: sandbox.url, graphVersion: 'v21.0' });
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('a third-party Cloud API client against the sandbox', () => {
  it('creates a template, sends it, and reads every status the webhooks carry', async () => {
    const created = await client.templates.create({
      businessAccountId: account.waba_id,
      name: 'pickup_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Hi {{1}}, your order is ready.', example: { body_text: [['Ana']] } },
      ],
    });
    expect(created.id).toMatch(/^\d+$/);
    await call(sandbox.url, `/__sandbox/templates/${created.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    receiver.received.length = 0;

    const wamids: string[] = [];
    for (const to of CUSTOMERS) {
      const sent = await client.messages.sendTemplate({
        phoneNumberId: account.phone_number_id,
        to,
        template: {
          name: 'pickup_ready',
          language: { code: 'en_US' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
        },
      });
      wamids.push(sent.messages[0]!.id);
    }
    // sent, delivered and read for each: twelve statuses, every one seen by the library's reader.
    await until(() => normalized().flatMap((n) => n.statuses).length >= wamids.length * 3);
    const statuses = normalized().flatMap((n) => n.statuses);
    for (const wamid of wamids) {
      expect(
        statuses
          .filter((s) => s.id === wamid)
          .map((s) => s.status)
          .sort(),
      ).toEqual(['delivered', 'read', 'sent']);
    }
    expect(statuses.every((s) => CUSTOMERS.includes(String(s.recipientId)))).toBe(true);
  });

  it('answers an inbound message with text and buttons inside the customer service window', async () => {
    receiver.received.length = 0;
    const [customer] = CUSTOMERS as [string];
    await call(sandbox.url, '/__sandbox/inbound', {
      method: 'POST',
      json: { phone_number_id: account.phone_number_id, from: customer, text: 'Can I collect it today?' },
    });
    await until(() => normalized().some((n) => n.messages.length > 0));
    const inbound = normalized().find((n) => n.messages.length > 0)!;
    expect(inbound.phoneNumberId).toBe(account.phone_number_id);
    expect(inbound.contacts[0]?.waId).toBe(customer);
    expect(inbound.messages[0]).toMatchObject({ from: customer, type: 'text' });

    receiver.received.length = 0;
    const text = await client.messages.sendText({
      phoneNumberId: account.phone_number_id,
      to: customer,
      body: 'Yes, until 6 pm.',
    });
    const buttons = await client.messages.sendInteractiveButtons({
      phoneNumberId: account.phone_number_id,
      to: customer,
      bodyText: 'Shall we keep it at the counter?',
      buttons: [
        { id: 'keep', title: 'Yes please' },
        { id: 'no', title: 'No' },
      ],
    });
    const ids = [text.messages[0]!.id, buttons.messages[0]!.id];
    await until(
      () =>
        normalized()
          .flatMap((n) => n.statuses)
          .filter((s) => s.status === 'read').length >= 2,
    );
    const delivered = normalized()
      .flatMap((n) => n.statuses)
      .filter((s) => s.status === 'delivered');
    expect(delivered.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(delivered.every((s) => (s.pricing as { billable?: boolean }).billable === false)).toBe(true);
  });

  it('uploads media and downloads the same bytes through the media URL', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const uploaded = await client.media.upload({
      phoneNumberId: account.phone_number_id,
      type: 'application/pdf',
      file: new Blob([pdf], { type: 'application/pdf' }),
      fileName: 'receipt.pdf',
    });
    const meta = await client.media.get({ mediaId: uploaded.id });
    expect(meta).toMatchObject({ mimeType: 'application/pdf', fileSize: pdf.length });
    // Meta's media guide downloads the URL with the access token; the library sends it only when told to.
    const bytes = (await client.media.download({ mediaId: uploaded.id, auth: 'always' })) as ArrayBuffer;
    expect(Buffer.from(bytes).equals(pdf)).toBe(true);
  });
});
