import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { QUICK_TAKEOVER, startTestWorker, type TestWorker } from '../../../../test-support/worker';
import { signedInUser } from '../features/auth/auth-test-helpers';

// What every fault test starts from: the API listening (the sandbox posts its webhooks to it), one business
// with an approved template and `recipients` contacts, and helpers to read the ground truth (the sandbox's log)
// beside Herald's own rows.
export { sleep };

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export interface FaultScene {
  t: TestApp;
  headers: Record<string, string>;
  wabaId: string;
  phoneNumberId: string;
  templateId: number;
  // The sandbox answers many shapes; each test reads the fields it names.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sandbox(route: string, body?: object): Promise<any>;
  /** The sandbox's accepted log for the number: the ground truth of who was messaged. */
  sentLog(): Promise<{ total: number; unique_recipients: number; duplicate_recipients: unknown[] }>;
  broadcastToAll(name: string): Promise<number>;
  status(broadcastId: number): Promise<string>;
  statesOf(broadcastId: number): Promise<Record<string, number>>;
  /** Recipients left 'unknown' for whom no send request ever reached the sandbox: must be none. */
  unknownNeverRequested(broadcastId: number): Promise<string[]>;
  /** An in-process worker on its own pool, as `herald work` runs it. */
  startWorker(unconfirmedTimeoutSeconds?: number): Promise<TestWorker>;
}

export async function faultScene(options: {
  email: string;
  recipients: number;
  sandboxConfig?: object;
  mps?: number;
}): Promise<FaultScene> {
  const t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const sandbox = (route: string, body?: object) =>
    fetch(`${t.sandboxUrl}${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.json() as Promise<any>); // eslint-disable-line @typescript-eslint/no-explicit-any
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
    default_messaging_limit: 'TIER_10K',
    ...options.sandboxConfig,
  });
  const owner = await signedInUser(t, options.email);
  const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const phoneNumberId = owner.business.phone_number_id;
  if (options.mps) {
    await sandbox(`/__sandbox/phone-numbers/${phoneNumberId}`, { mps: options.mps });
    await t.db.pool.query("update phone_numbers set throughput_level = 'HIGH'");
  }
  await t.db.pool.query(
    `insert into contacts (waba_account_id, name, whatsapp_number)
     select w.id, 'Person ' || i, '+1631' || lpad(i::text, 7, '0')
       from waba_accounts w, generate_series(1, $1) i where w.waba_id = $2`,
    [options.recipients, owner.business.waba_id],
  );
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'fault_test',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  const templateId = template.json().id as number;
  await waitFor('the template to be approved', async () => {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [templateId]);
    return rows[0]?.status === 'APPROVED' ? true : undefined;
  });

  return {
    t,
    headers,
    wabaId: owner.business.waba_id,
    phoneNumberId,
    templateId,
    sandbox,
    sentLog: () => sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=0`),
    async broadcastToAll(name) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/broadcast/create/',
        headers,
        payload: { name, template_id: templateId, recipients: { type: 'all', percentage: 100 } },
      });
      if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
      return created.json().id as number;
    },
    async status(broadcastId) {
      const { rows } = await t.db.pool.query('select status from broadcasts where id = $1', [broadcastId]);
      return rows[0]?.status as string;
    },
    async statesOf(broadcastId) {
      const { rows } = await t.db.pool.query<{ state: string; n: number }>(
        'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
        [broadcastId],
      );
      return Object.fromEntries(rows.map((row) => [row.state, row.n]));
    },
    async unknownNeverRequested(broadcastId) {
      const log = await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=0&requested=1`);
      const requested = new Set(log.requested_recipients as string[]);
      const { rows } = await t.db.pool.query<{ number: string }>(
        "select whatsapp_number as number from broadcast_messages where broadcast_id = $1 and state = 'unknown'",
        [broadcastId],
      );
      return rows.map((row) => row.number.replace(/^\+/, '')).filter((number) => !requested.has(number));
    },
    startWorker(unconfirmedTimeoutSeconds = QUICK_TAKEOVER.unconfirmedTimeoutSeconds) {
      return startTestWorker({
        app: t,
        onError: () => {},
        onInfo: () => {},
        broadcasts: true,
        ...QUICK_TAKEOVER,
        unconfirmedTimeoutSeconds,
      });
    },
  };
}
