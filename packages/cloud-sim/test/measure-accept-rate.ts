/**
 * How many template sends a second the sandbox accepts over keep-alive HTTP on this machine:
 * `npx tsx packages/cloud-sim/test/measure-accept-rate.ts [seconds=3] [concurrency=50] [http|fetch]`.
 * Prints JSON.
 * The sandbox runs in its own process (its CLI, as Herald runs it, call log on); status webhooks go to a
 * receiver here answering 200, as Herald's endpoint would.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { call, signUpWithToken } from './sandbox-client';
import { startWebhookReceiver } from './webhook-receiver';

const seconds = Number(process.argv[2] ?? 3);
const concurrency = Number(process.argv[3] ?? 50);
/** `fetch` (Node's undici) or `http` (node:http with a keep-alive agent, a lighter client). */
const client = process.argv[4] === 'fetch' ? 'fetch' : 'http';
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function post(url: string, headers: Record<string, string>, body: string): Promise<number> {
  if (client === 'fetch') {
    // Node's fetch keeps connections alive (its undici pool), so each worker reuses one.
    return fetch(url, { method: 'POST', headers, body }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const receiver = await startWebhookReceiver();
const dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-bench-'));
const child = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('../src/cli.ts', import.meta.url).pathname],
  {
    env: {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_WEBHOOK_URL: receiver.url,
      SANDBOX_LOG_FILE: join(dir, 'calls.jsonl'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const sandboxUrl = await new Promise<string>((resolve, reject) => {
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const match = /listening on (\S+)/.exec(line);
    if (match) resolve(match[1] as string);
  });
  child.once('exit', () => reject(new Error('the sandbox exited')));
});
const sandbox = { url: sandboxUrl };
const account = await signUpWithToken(sandbox.url);
const created = await call(sandbox.url, `/v21.0/${account.waba_id}/message_templates`, {
  method: 'POST',
  token: account.token,
  json: {
    name: 'bench',
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hi {{1}}, {{2}} today.', example: { body_text: [['a', 'b']] } }],
  },
});
await call(sandbox.url, `/__sandbox/templates/${created.body.id}/review`, {
  method: 'POST',
  json: { status: 'APPROVED' },
});
await call(sandbox.url, `/__sandbox/phone-numbers/${account.phone_number_id}`, {
  method: 'POST',
  json: { mps: 100_000 },
});

const path = `${sandbox.url}/v21.0/${account.phone_number_id}/messages`;
let next = 0;
let accepted = 0;
let refused = 0;
const deadline = Date.now() + seconds * 1000;

async function worker(): Promise<void> {
  while (Date.now() < deadline) {
    next += 1;
    const to = `1650${String(next).padStart(7, '0')}`;
    const status = await post(
      path,
      { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      JSON.stringify({
        messaging_product: 'whatsapp',
        to,
        type: 'template',
        biz_opaque_callback_data: `row-${next}`,
        template: {
          name: 'bench',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: 'x' },
              ],
            },
          ],
        },
      }),
    );
    if (status === 200) accepted += 1;
    else refused += 1;
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const elapsed = (Date.now() - started) / 1000;
const log = await call(sandbox.url, '/__sandbox/messages?limit=0');
// Let the last statuses (read after 800 ms) go out, then count what the receiver got.
await new Promise((r) => setTimeout(r, 1500));
const statusesReceived = receiver.received.reduce(
  (n, hook) =>
    n +
    (JSON.parse(hook.raw) as { entry: { changes: { value: { statuses?: unknown[] } }[] }[] }).entry
      .flatMap((e) => e.changes)
      .reduce((m, c) => m + (c.value.statuses?.length ?? 0), 0),
  0,
);
process.stdout.write(
  `${JSON.stringify({
    seconds: elapsed,
    concurrency,
    client,
    accepted,
    refused,
    accepted_per_second: Math.round(accepted / elapsed),
    accepted_log_total: log.body.total,
    duplicate_recipients: log.body.duplicate_recipients.length,
    status_webhook_posts: receiver.received.length,
    statuses_received: statusesReceived,
    statuses_per_second: Math.round(statusesReceived / elapsed),
  })}\n`,
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
agent.destroy();
await receiver.close();
await rm(dir, { recursive: true, force: true });
