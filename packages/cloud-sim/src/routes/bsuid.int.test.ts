import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import type { SignedUp } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

/** Users known only by a business-scoped user id (BSUID): sends with `recipient`, their statuses and inbound. */
let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;
let dir: string;

const BSUID = 'US.13491208655302741918';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const send = (template: string, address: Record<string, string>) =>
  call(url, `/v21.0/${account.phone_number_id}/messages`, {
    method: 'POST',
    token: account.token,
    json: {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...address,
      type: 'template',
      template: { name: template, language: { code: 'en_US' } },
    },
  });

async function approved(name: string, category: string) {
  const created = await call(url, `/v21.0/${account.waba_id}/message_templates`, {
    method: 'POST',
    token: account.token,
    json: { name, language: 'en_US', category, components: [{ type: 'BODY', text: 'Hello there.' }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
}

const messageValues = (): Json[] =>
  receiver.received.flatMap((h) =>
    JSON.parse(h.raw).entry.flatMap((e: Json) =>
      e.changes.filter((c: Json) => c.field === 'messages').map((c: Json) => c.value),
    ),
  );

async function until(ok: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-bsuid-'));
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, logFile: join(dir, 'calls.jsonl') });
  url = sandbox.url;
  await call(url, '/__sandbox/config', {
    method: 'POST',
    json: {
      webhook_url: receiver.url,
      status_delays_ms: { sent: 10, delivered: 20, read: 30 },
      delivered_rate: 1,
      read_rate: 0,
      pair_rate_window_ms: 0,
    },
  });
  account = await signUpWithToken(url, { phone_number: '+1 555 078 3882' });
  await approved('order_ready', 'UTILITY');
  await approved('login_code', 'AUTHENTICATION');
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

describe('users known only by a BSUID', () => {
  it('accepts a send with recipient and reports its statuses with recipient_user_id, no recipient_id', async () => {
    const sent = await send('order_ready', { recipient: BSUID });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.contacts).toEqual([{ input: BSUID, user_id: BSUID }]);
    const wamid = sent.body.messages[0].id as string;
    const statuses = () =>
      messageValues()
        .flatMap((v) => v.statuses ?? [])
        .filter((s: Json) => s.id === wamid);
    await until(() => statuses().some((s: Json) => s.status === 'delivered'));
    for (const status of statuses()) {
      expect(status.recipient_user_id).toBe(BSUID);
      expect(status).not.toHaveProperty('recipient_id');
    }
  });

  it('sends to `to` when both are given, and refuses a BSUID as `to` or a malformed recipient', async () => {
    const both = await send('order_ready', { to: '16505550123', recipient: BSUID });
    expect(both.body.contacts).toEqual([{ input: '16505550123', wa_id: '16505550123' }]);
    expect((await send('order_ready', { to: BSUID })).status).toBe(400);
    const bad = await send('order_ready', { recipient: 'not-a-bsuid' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('recipient');
  });

  it('refuses an authentication template to a BSUID, and sends it to a number', async () => {
    const refused = await send('login_code', { recipient: BSUID });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('authentication templates cannot be sent');
    expect((await send('login_code', { to: '16505550124' })).status).toBe(200);
  });

  it('sends inbound messages with from_user_id and the username, and the user_changed_user_id system message', async () => {
    const inbound = await call(url, '/__sandbox/inbound', {
      method: 'POST',
      json: { phone_number_id: account.phone_number_id, user_id: BSUID, username: 'sam.k', text: 'Hi' },
    });
    expect(inbound.status).toBe(200);
    const change = await call(url, '/__sandbox/user-id-change', {
      method: 'POST',
      json: { phone_number_id: account.phone_number_id, user_id: BSUID, new_user_id: 'US.2' },
    });
    expect(change.status).toBe(200);
    await until(() => messageValues().some((v) => v.messages?.[0]?.type === 'system'));
    const hi = messageValues().find((v) => v.messages?.[0]?.text?.body === 'Hi');
    expect(hi.contacts).toEqual([{ profile: { name: 'Sandbox User', username: 'sam.k' }, user_id: BSUID }]);
    expect(hi.messages[0]).toMatchObject({ from_user_id: BSUID });
    expect(hi.messages[0]).not.toHaveProperty('from');
    const system = messageValues().find((v) => v.messages?.[0]?.type === 'system').messages[0];
    expect(system).toMatchObject({
      from_user_id: BSUID,
      system: { type: 'user_changed_user_id', user_id: 'US.2' },
    });
  });
});
