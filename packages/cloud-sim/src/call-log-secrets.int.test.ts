import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUpWithToken } from '../test/sandbox-client';
import { startSandbox } from './server';
import type { RunningSandbox } from './server';

// Every secret a sign-up and a send hand around, then a look at all the sandbox wrote: call log and request log.
let sandbox: RunningSandbox;
let dir: string;
let logFile: string;
const requestLog: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-secrets-'));
  logFile = join(dir, 'calls.jsonl');
  sandbox = await startSandbox({
    port: 0,
    logFile,
    reviewDelayMs: 600_000,
    logger: { write: (line: string) => void requestLog.push(line) },
  });
});
afterAll(async () => {
  await sandbox.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const TEMPLATE = {
  name: 'secret_check',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your order ships today.' }],
};
const message = (to: string) => ({
  messaging_product: 'whatsapp',
  to,
  type: 'template',
  template: { name: 'secret_check', language: { code: 'en_US' } },
});

describe('what the sandbox writes down', () => {
  it('holds none of the codes, tokens, app secret or PIN of a sign-up and a message send', async () => {
    // Sign-up through the Embedded Signup popup's endpoint, the code exchanged in a form body.
    const completed = await call(sandbox.url, '/embedded-signup/complete', {
      method: 'POST',
      form: { app_id: 'herald-sandbox-app', business_name: 'Secret Shop', phone_number: '+1 555 010 2030' },
    });
    expect(completed.status).toBe(200);
    const code = completed.body.code as string;
    const exchanged = await call(sandbox.url, '/v21.0/oauth/access_token', {
      method: 'POST',
      form: { client_id: 'herald-sandbox-app', client_secret: 'herald-sandbox-secret', code },
    });
    expect(exchanged.status).toBe(200);
    const token = exchanged.body.access_token as string;
    // A second business whose code is exchanged in the query string, as Herald does.
    const other = await signUpWithToken(sandbox.url);

    const pin = '731946';
    const registered = await call(sandbox.url, `/v21.0/${completed.body.phone_number_id}/register`, {
      method: 'POST',
      token,
      json: { messaging_product: 'whatsapp', pin },
    });
    expect(registered.status).toBe(200);
    const created = await call(sandbox.url, `/v21.0/${completed.body.waba_id}/message_templates`, {
      method: 'POST',
      token,
      json: TEMPLATE,
    });
    expect(created.status).toBe(200);
    await call(sandbox.url, `/__sandbox/templates/${created.body.id}/review`, {
      method: 'POST',
      json: { status: 'APPROVED' },
    });
    const byHeader = await call(sandbox.url, `/v21.0/${completed.body.phone_number_id}/messages`, {
      method: 'POST',
      token,
      json: message('16505550101'),
    });
    expect(byHeader.status).toBe(200);
    const byQuery = await call(
      sandbox.url,
      `/v21.0/${completed.body.phone_number_id}/messages?access_token=${token}`,
      { method: 'POST', json: message('16505550102') },
    );
    expect(byQuery.status).toBe(200);

    await sandbox.close(); // writes the buffered lines of the sends
    const callLog = await readFile(logFile, 'utf8');
    const requests = requestLog.join('');
    // Both logs recorded these calls, so what they lack below was left out, not never written.
    expect(callLog).toContain('/oauth/access_token');
    expect(callLog).toContain(`/${completed.body.phone_number_id}/messages`);
    expect(requests).toContain('/oauth/access_token?client_id=herald-sandbox-app&client_secret=******');
    expect(requests).toContain(`/messages?access_token=******`);
    for (const secret of [code, token, other.code, other.token, 'herald-sandbox-secret', pin]) {
      expect(callLog).not.toContain(secret);
      expect(requests).not.toContain(secret);
    }
  });
});
