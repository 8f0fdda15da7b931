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
import { signPayload } from '../webhooks/sign-payload';

/** Any webhook event on demand: `/__sandbox/webhook-events` lists and sends Meta-shaped examples. */
let sandbox: RunningSandbox;
let url: string;
let receiver: WebhookReceiver;
let account: SignedUp;
let dir: string;
const APP_SECRET = 'events-secret';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-events-'));
  receiver = await startWebhookReceiver();
  sandbox = await startSandbox({ port: 0, logFile: join(dir, 'calls.jsonl'), appSecret: APP_SECRET });
  url = sandbox.url;
  await call(url, '/__sandbox/config', { method: 'POST', json: { webhook_url: receiver.url } });
  account = await signUpWithToken(url, { phone_number: '+1 555 078 3883' });
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

const sendEvent = (json: object) =>
  call(url, '/__sandbox/webhook-events', {
    method: 'POST',
    json: { phone_number_id: account.phone_number_id, ...json },
  });

describe('webhook events on demand', () => {
  it('sends a ban in the account_update shape, signed with the app secret', async () => {
    const before = receiver.received.length;
    const sent = await sendEvent({ event: 'account_update:DISABLED_UPDATE' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.field).toBe('account_update');
    const [delivery] = (await receiver.waitFor(before + 1)).slice(before);
    const body = JSON.parse(delivery!.raw);
    expect(body.entry[0].id).toBe(account.waba_id);
    expect(body.entry[0].changes[0]).toEqual({
      field: 'account_update',
      value: {
        event: 'DISABLED_UPDATE',
        ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: expect.any(String) },
      },
    });
    expect(delivery!.headers['x-hub-signature-256']).toBe(signPayload(delivery!.raw, APP_SECRET));
  });

  it('lists the events it can send', async () => {
    const listed = await call(url, '/__sandbox/webhook-events');
    expect(listed.body.events).toContain('user_preferences:stop');
    expect(listed.body.events).toContain('template_category_update:impending');
  });

  it('answers (#100) naming what is missing or wrong', async () => {
    const noEvent = await sendEvent({});
    expect(noEvent.status).toBe(400);
    expect(JSON.stringify(noEvent.body)).toMatch(/event/);
    const unknown = await sendEvent({ event: 'account_update:NOPE' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/event must be one of/);
    const noTemplate = await sendEvent({ event: 'message_template_status_update:ARCHIVED' });
    expect(noTemplate.status).toBe(400);
    expect(JSON.stringify(noTemplate.body)).toMatch(/template is required/);
    const badNumber = await sendEvent({ event: 'user_preferences:stop', from: 'abc' });
    expect(badNumber.status).toBe(400);
    expect(JSON.stringify(badNumber.body)).toMatch(/from must be a phone number/);
  });
});
