import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { signedInUser } from '../../auth/auth-test-helpers';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender } from './message-sender';

// A worker asked to stop (Ctrl-C, a deploy) sends nothing more: every claimed row it had not yet requested goes
// back to the queue at once, its attempt not counted, instead of the stop waiting for the bucket to pace the
// whole batch out (or a kill leaving the rows 'sending', read after a restart as 'unknown' though never sent).
let t: TestApp;
let sender: MessageSender;
const RECIPIENTS = 300;

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    pair_rate_window_ms: 0,
  });
  sender = new MessageSender(t.sandboxUrl, 'v21.0');
});

afterAll(async () => {
  sender?.close();
  await t.close();
});

describe('BroadcastEngine.stop', () => {
  it('gives back at once the claimed rows it has not requested; sends each accepted one exactly once', async () => {
    const owner = await signedInUser(t, 'stop@acme.test');
    const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
    await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number)
       select w.id, 'Person ' || i, '+1628' || (1000000 + i)::text
         from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
      [RECIPIENTS, owner.business.waba_id],
    );
    const template = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers,
      payload: {
        name: 'stop_test',
        language: 'en_US',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
        dynamic_variables: { body_variable: { '1': 'name' } },
      },
    });
    const templateId = template.json().id;
    for (let i = 0; i < 100; i += 1) {
      await t.app.webhooks.idle();
      const { rows } = await t.db.pool.query('select status from templates where id = $1', [templateId]);
      if (rows[0].status === 'APPROVED') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'Stopped', template_id: templateId, recipients: { type: 'all', percentage: 100 } },
    });
    expect(created.statusCode).toBe(201);

    // 20 a second: a claimed batch of 200 would take 10 s to pace out.
    const engine = new BroadcastEngine({
      pool: t.db.pool,
      sender,
      secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
      mpsOverride: 20,
    });
    await engine.tick();
    const count = async (where: string) =>
      Number(
        (await t.db.pool.query(`select count(*)::int as n from broadcast_messages where ${where}`)).rows[0].n,
      );
    for (let i = 0; i < 100 && (await count("state = 'sending'")) === 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopAt = Date.now();
    await engine.stop();
    expect(Date.now() - stopAt).toBeLessThan(1_500);

    const accepted = await count("state not in ('queued', 'sending', 'unconfirmed')");
    expect(accepted).toBeGreaterThan(0);
    expect(await count("state in ('sending', 'unconfirmed')")).toBe(0);
    expect(await count("state = 'queued'")).toBe(RECIPIENTS - accepted);
    // A row given back was never tried: its attempt does not count towards the limit.
    expect(await count("state = 'queued' and attempts > 0")).toBe(0);
    const state = (await sandbox('/__sandbox/state')) as { messaging: { accepted_count: number } };
    expect(state.messaging.accepted_count).toBe(accepted);
  });
});
