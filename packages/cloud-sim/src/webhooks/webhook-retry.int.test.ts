import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../../test/sandbox-client';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import type { WebhookReceiver } from '../../test/webhook-receiver';
import { startSandbox } from '../server';
import type { RunningSandbox, StartSandboxOptions } from '../server';

// Meta retries a webhook its receiver refuses with decreasing frequency for up to 7 days; these tests run
// that policy with its waits and its age compressed to milliseconds.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let dir: string;
let receiver: WebhookReceiver;
const running: RunningSandbox[] = [];

async function start(options: Partial<StartSandboxOptions> = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    logFile: join(dir, 'calls.jsonl'),
    snapshotDelayMs: 20,
    reviewDelayMs: 600_000,
    webhookUrl: receiver.url,
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

async function stop(sandbox: RunningSandbox): Promise<void> {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Approves a new template, which posts one message_template_status_update webhook. */
async function postOneWebhook(url: string): Promise<void> {
  const acc = await signUpWithToken(url);
  const created = await call(url, `/v21.0/${acc.waba_id}/message_templates`, {
    method: 'POST',
    token: acc.token,
    json: {
      name: 'plain',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi.' }],
    },
  });
  expect(created.status).toBe(200);
  const reviewed = await call(url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
  expect(reviewed.status).toBe(200);
}

async function theDelivery(url: string): Promise<Json> {
  const state = await call(url, '/__sandbox/state');
  return state.body.webhook_deliveries.find((d: Json) => d.field === 'message_template_status_update');
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-retry-'));
  receiver = await startWebhookReceiver();
});

afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
});

describe('webhook retries', () => {
  it('delivers a webhook refused for longer than the old 5 attempts once the receiver is back', async () => {
    const sandbox = await start({ webhookRetryBaseMs: 10, webhookRetryMaxWaitMs: 40 });
    // Herald down for 9 attempts; the 10th is taken.
    receiver.answers.push(...Array<number>(9).fill(503));
    await postOneWebhook(sandbox.url);
    await receiver.waitFor(10);
    const delivery = await until(async () => {
      const d = await theDelivery(sandbox.url);
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(delivery.attempts.map((a: Json) => a.http_status)).toEqual([...Array<number>(9).fill(503), 200]);
    // The waits doubled from the base and then stayed at the max wait.
    const at = delivery.attempts.map((a: Json) => Date.parse(a.at));
    expect(at[9] - at[8]).toBeGreaterThanOrEqual(35);
    expect(delivery.next_attempt_at).toBeNull();
  });

  it('keeps a pending delivery across a restart, retries it when it was due, and delivers it', async () => {
    const options = { webhookRetryBaseMs: 1500, webhookRetryMaxWaitMs: 1500 };
    const first = await start(options);
    receiver.answers.push(503);
    await postOneWebhook(first.url);
    await receiver.waitFor(1);
    const refused = await until(async () => {
      const d = await theDelivery(first.url);
      return d?.attempts.length === 1 && d.next_attempt_at !== null ? d : undefined;
    });
    const refusedAt = Date.parse(refused.attempts[0].at);
    await stop(first);
    const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(saved.webhooks).toHaveLength(1);
    expect(saved.webhooks[0]).toMatchObject({ attempts: 1, next_attempt_at: refused.next_attempt_at });

    const second = await start(options);
    await receiver.waitFor(2);
    // Not at once on the restart: when the back-off had it due.
    expect(receiver.received[1]!.at).toBeGreaterThanOrEqual(refusedAt + 1400);
    const delivered = await until(async () => {
      const d = await theDelivery(second.url);
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(delivered.created_at).toBe(refused.created_at);
    expect(delivered.attempts.map((a: Json) => a.http_status)).toEqual([503, 200]);
    expect(receiver.received[1]!.raw).toBe(receiver.received[0]!.raw);
  });

  it('gives up a delivery once it is older than the max age', async () => {
    const sandbox = await start({
      webhookRetryBaseMs: 20,
      webhookRetryMaxWaitMs: 50,
      webhookRetryMaxAgeMs: 400,
    });
    receiver.answers.push(...Array<number>(100).fill(503));
    await postOneWebhook(sandbox.url);
    const failed = await until(async () => {
      const d = await theDelivery(sandbox.url);
      return d?.status === 'failed' ? d : undefined;
    });
    expect(failed.failure).toMatch(/within 400 ms/);
    expect(failed.attempts.length).toBeGreaterThan(5);
    const attempts = receiver.received.length;
    await sleep(200);
    expect(receiver.received).toHaveLength(attempts);
  });

  it('gives up at start a saved delivery older than the max age, without posting it again', async () => {
    const first = await start({ webhookRetryBaseMs: 60_000 });
    receiver.answers.push(503);
    await postOneWebhook(first.url);
    await receiver.waitFor(1);
    await until(async () => ((await theDelivery(first.url))?.next_attempt_at ? true : undefined));
    await stop(first);
    await sleep(300);

    const second = await start({ webhookRetryMaxAgeMs: 200 });
    const delivery = await theDelivery(second.url);
    expect(delivery).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(delivery.failure).toMatch(/older than 200 ms/);
    await sleep(200);
    expect(receiver.received).toHaveLength(1);
    // Given up is settled: the state on disk no longer lists it as pending.
    await stop(second);
    const saved = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(saved.webhooks).toEqual([]);
  });
});
