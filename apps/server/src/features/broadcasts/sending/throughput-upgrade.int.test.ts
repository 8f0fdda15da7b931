import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBusiness, type Business } from '../../../../../../test-support/business';
import { listenForWebhooks, startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender } from './message-sender';

/**
 * A number's throughput raised by Meta (phone_number_quality_update THROUGHPUT_UPGRADE, sent by the sandbox as
 * Meta would) while its broadcast sends: the running sender paces at the new level (1,000 messages a second
 * instead of 80) from its next batch, not only when it next starts.
 */
const RECIPIENTS = 600;
let t: TestApp;
let owner: Business;
let engine: BroadcastEngine;
let sender: MessageSender;

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

beforeAll(async () => {
  t = await startTestApp();
  const address = await listenForWebhooks(t);
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
  });
  owner = await makeBusiness(t, { email: 'upgrade@acme.test', contacts: RECIPIENTS, templates: [{}] });
  sender = new MessageSender(t.sandboxUrl, 'v25.0');
  engine = new BroadcastEngine({ pool: t.db.pool, sender, secrets: new SecretBox(t.config.ENCRYPTION_KEY!) });
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  sender?.close();
  await t?.close();
});

const accepted = async () =>
  (
    (await sandbox(`/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`)) as {
      total: number;
    }
  ).total;

describe('a throughput upgrade while a broadcast sends', () => {
  it('raises the running sender’s pace from its next batch', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers: owner.headers,
      payload: {
        name: 'Upgrade',
        template_id: owner.templateIds[0],
        recipients: { type: 'all', percentage: 100 },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await engine.tick();
    // At the standard 80 messages a second the whole broadcast would take 7.5 s.
    for (const deadline = Date.now() + 20_000; (await accepted()) < 40;) {
      if (Date.now() > deadline) throw new Error('the broadcast never started sending');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const upgraded = await sandbox(`/__sandbox/phone-numbers/${owner.business.phone_number_id}`, {
      throughput_level: 'HIGH',
      event: 'THROUGHPUT_UPGRADE',
    });
    expect(upgraded).toMatchObject({ throughput_level: 'HIGH' });
    for (const deadline = Date.now() + 10_000; ;) {
      await t.app.webhooks.idle();
      const { rows } = await t.db.pool.query(
        "select 1 from phone_numbers where phone_number_id = $1 and throughput_level = 'HIGH'",
        [owner.business.phone_number_id],
      );
      if (rows.length > 0) break;
      if (Date.now() > deadline) throw new Error('the upgrade never reached Herald');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const deadline = Date.now() + 30_000; (await accepted()) < RECIPIENTS;) {
      if (Date.now() > deadline) throw new Error('the broadcast never finished');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The pace the sandbox saw: the most messages it accepted in any one second. At the standard level Herald
    // sends at most 80 a second (88 with the bucket's tenth-of-a-second burst); after the upgrade, from its next
    // batch, far more. A rate, not a duration: a slow machine still sends well above 80 a second.
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=${RECIPIENTS}`,
    )) as unknown as { data: Array<{ accepted_at: string }> };
    const times = log.data.map((m) => Date.parse(m.accepted_at)).sort((x, y) => x - y);
    let busiest = 0;
    for (let first = 0, last = 0; last < times.length; last += 1) {
      while (times[last]! - times[first]! >= 1_000) first += 1;
      busiest = Math.max(busiest, last - first + 1);
    }
    expect(times).toHaveLength(RECIPIENTS);
    expect(busiest).toBeGreaterThan(200);
  }, 60_000);
});
