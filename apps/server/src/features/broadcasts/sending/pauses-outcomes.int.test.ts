import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { signedInUser } from '../../auth/auth-test-helpers';
import { postMessagesWebhook, postSignedWebhook } from '../../webhooks/webhook-test-helpers';
import { BroadcastEngine } from './broadcast-engine';
import { MessageSender } from './message-sender';
import { settleMessages } from './message-settle';
import { freshBroadcastRow } from '../broadcast-test-helpers';

/**
 * Pacing and pauses against the sandbox over HTTP: held messages, templates WhatsApp pauses (by webhook and
 * by its 132015 answer), the per-user marketing limit (131049) retried a day later, not on WhatsApp (131026),
 * and the report's failure reasons. Decisions 028 and 029.
 */
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let phoneNumberId: string;
let wabaAccountId: number;
let sender: MessageSender;
let engine: BroadcastEngine;
/** Slow (10 messages a second), so a batch is still in flight when a pause comes. */
let slowEngine: BroadcastEngine;

const sandbox = async (path: string, body?: object) => {
  const response = await fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return json;
};

/** What the sandbox accepted from this number for the given recipients (digits), and how often each. */
async function accepted(numbers: string[]) {
  const log = (await sandbox(`/__sandbox/messages?phone_number_id=${phoneNumberId}&limit=100000`)) as {
    data: Array<{ to: string }>;
  };
  const wanted = new Set(numbers.map((n) => n.replace(/^\+/, '')));
  const perRecipient = new Map<string, number>();
  for (const m of log.data) if (wanted.has(m.to)) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
  return { total: [...perRecipient.values()].reduce((a, b) => a + b, 0), perRecipient };
}

const act = (id: number, action: string) =>
  t.app.inject({ method: 'POST', url: `/broadcast/${id}/${action}/`, headers });

const broadcastRow = (id: number) => freshBroadcastRow(t.db.pool, id);

const messageStates = async (id: number) =>
  (
    await t.db.pool.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
      [id],
    )
  ).rows.reduce<Record<string, number>>((acc, row) => ({ ...acc, [row.state]: row.n }), {});

async function until(
  check: () => Promise<boolean>,
  timeoutMs = 20_000,
  run: BroadcastEngine | null = engine,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (run) {
      await run.tick();
      await run.idle();
    }
    await t.app.webhooks.idle();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function template(
  name: string,
  category: 'MARKETING' | 'UTILITY',
  text = 'Hello {{1}}, see you soon.',
  bound: Record<string, string> = { '1': 'name' },
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name,
      language: 'en_US',
      category,
      components: [{ type: 'BODY', text }],
      dynamic_variables: { body_variable: bound },
    },
  });
  expect(response.statusCode).toBe(201);
  const id = response.json().id as number;
  await until(
    async () =>
      (await t.db.pool.query('select status from templates where id = $1', [id])).rows[0].status ===
      'APPROVED',
    10_000,
    null,
  );
  const meta = (await t.db.pool.query('select meta_template_id from templates where id = $1', [id])).rows[0];
  return { id, metaId: meta.meta_template_id as string, name };
}

/** Contacts tagged with a new tag of their own; answers the tag id. */
async function audience(
  tagName: string,
  contacts: Array<[string, string] | [string, string, string | null]>,
) {
  const tag = (
    await t.db.pool.query('insert into tags (waba_account_id, name) values ($1, $2) returning id::int', [
      wabaAccountId,
      tagName,
    ])
  ).rows[0].id as number;
  for (const [name, number, email] of contacts) {
    const { rows } = await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number, email) values ($1, $2, $3, $4) returning id',
      [wabaAccountId, name, number, email ?? null],
    );
    await t.db.pool.query(
      'insert into contact_tags (waba_account_id, contact_id, tag_id) select waba_account_id, id, $2 from contacts where id = $1',
      [rows[0].id, tag],
    );
  }
  return tag;
}

async function create(name: string, templateId: number, tag: number, scheduledTime?: number) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: {
      name,
      template_id: templateId,
      recipients: { type: 'filtered', tag_ids: [tag], percentage: 100 },
      ...(scheduledTime ? { scheduled_time: scheduledTime } : {}),
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as number;
}

/** Meta's template status webhook, signed, applied before it answers. */
async function templateWebhook(metaId: string, name: string, event: string, extra: object = {}) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event,
              message_template_id: Number(metaId),
              message_template_name: name,
              message_template_language: 'en_US',
              reason: event === 'PAUSED' ? 'NONE' : null,
              ...extra,
            },
          },
        ],
      },
    ],
  });
  expect((await postSignedWebhook(t, body)).statusCode).toBe(200);
  await t.app.webhooks.idle();
}

const numbers = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `+${prefix}${String(100 + i).padStart(3, '0')}`);

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 30, read: 60 },
    pair_rate_window_ms: 0,
    read_rate: 0,
  });
  const owner = await signedInUser(t, 'pauses@acme.test');
  wabaId = owner.business.waba_id;
  phoneNumberId = owner.business.phone_number_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  wabaAccountId = (await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [wabaId]))
    .rows[0].id;
  sender = new MessageSender(t.sandboxUrl, 'v21.0');
  const secrets = new SecretBox(t.config.ENCRYPTION_KEY!);
  engine = new BroadcastEngine({ pool: t.db.pool, sender, secrets });
  slowEngine = new BroadcastEngine({ pool: t.db.pool, sender, secrets, mpsOverride: 10 });
});

afterAll(async () => {
  await engine?.stop();
  await slowEngine?.stop();
  sender?.close();
  await t.close();
});

describe('held by WhatsApp (template pacing)', () => {
  it('holds messages answered held_for_quality_assessment without failing or retrying them; their statuses settle them', async () => {
    const paced = await template('paced_notice', 'UTILITY');
    await sandbox(`/__sandbox/templates/${paced.metaId}/pacing`, {
      held_share: 1,
      outcome: 'release',
      after_ms: 1_500,
    });
    const recipients = numbers('4477009001', 5);
    const tag = await audience(
      'Paced',
      recipients.map((n, i) => [`Paced ${i}`, n]),
    );
    const id = await create('Paced', paced.id, tag);
    // Completes while its messages are held: they do not hold the broadcast, like accepted ones.
    await until(async () => (await broadcastRow(id)).status === 'completed');
    expect(await messageStates(id)).toEqual({ held: 5 });
    const rows = (
      await t.db.pool.query('select wamid, attempts from broadcast_messages where broadcast_id = $1', [id])
    ).rows;
    expect(rows.every((r) => r.wamid && r.attempts === 1)).toBe(true);
    const report = (
      await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/`, headers })
    ).json();
    expect(report.outcomes).toMatchObject({ held: 5, failed: 0, pending: 0 });
    expect(report.failure_reasons).toEqual([]);

    // Released after 1.5 s: the later statuses move them on, with the wamids they were held with.
    await until(async () => {
      const states = await messageStates(id);
      return (states.delivered ?? 0) + (states.read ?? 0) === 5;
    });
    const after = (
      await t.db.pool.query('select wamid from broadcast_messages where broadcast_id = $1', [id])
    ).rows;
    expect(after.map((r) => r.wamid).sort()).toEqual(rows.map((r) => r.wamid).sort());
    expect((await accepted(recipients)).total).toBe(5);
  });

  it('fails a held message WhatsApp drops later (a failed status with 132015), without retrying it', async () => {
    const dropped = await template('dropped_notice', 'UTILITY');
    await sandbox(`/__sandbox/templates/${dropped.metaId}/pacing`, {
      held_share: 1,
      outcome: 'drop',
      after_ms: 200,
    });
    const recipients = numbers('4477009002', 2);
    const tag = await audience(
      'Dropped',
      recipients.map((n, i) => [`Dropped ${i}`, n]),
    );
    const id = await create('Dropped', dropped.id, tag);
    await until(async () => (await broadcastRow(id)).failed_count === 2);
    expect(await messageStates(id)).toEqual({ failed: 2 });
    expect((await accepted(recipients)).total).toBe(2);
  });
});

describe('a template WhatsApp pauses', () => {
  it('pauses its sending broadcast by webhook mid-batch: nothing more is sent, resumed after reinstatement, everyone once', async () => {
    const summer = await template('summer_pause', 'UTILITY');
    const recipients = numbers('4477009003', 30);
    const tag = await audience(
      'Summer',
      recipients.map((n, i) => [`Summer ${i}`, n]),
    );
    const id = await create('Summer', summer.id, tag);
    // The slow engine sends 10 a second: all 30 are claimed in one batch, and it is in flight.
    await slowEngine.tick();
    await until(async () => (await accepted(recipients)).total >= 5, 10_000, null);
    // The sandbox still accepts the template: any send after the webhook would show in its log.
    await templateWebhook(summer.metaId, summer.name, 'PAUSED', {
      other_info: { title: 'Template paused', description: 'Your template was paused due to low quality.' },
    });
    const atPause = (await accepted(recipients)).total;
    await slowEngine.idle();
    await t.app.webhooks.idle();
    // At most a request already made when the notification arrived (none at 10 a second, in practice).
    expect((await accepted(recipients)).total - atPause).toBeLessThanOrEqual(1);
    const paused = await broadcastRow(id);
    expect(paused.status).toBe('paused');
    expect(paused.status_reason).toBe(
      'WhatsApp paused the template summer_pause: Your template was paused due to low quality.',
    );
    const states = await messageStates(id);
    expect(states.sending).toBeUndefined();
    expect(states.failed).toBeUndefined();
    // The rest of the batch went back to the queue unsent, its attempt not counted.
    const unsent = (
      await t.db.pool.query(
        "select count(*)::int as n, max(attempts)::int as most from broadcast_messages where broadcast_id = $1 and state = 'queued'",
        [id],
      )
    ).rows[0];
    expect(unsent.n).toBeGreaterThan(10);
    expect(unsent.most).toBe(0);

    // The history shows the reason.
    const list = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
    expect(list.results.find((r: { id: number }) => r.id === id)).toMatchObject({
      status: 'paused',
      status_reason: paused.status_reason,
    });

    // While the template is paused the broadcast cannot resume.
    const refused = await act(id, 'resume');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0]).toMatchObject({ field: 'status' });
    expect(refused.json().message).toContain('WhatsApp paused the template summer_pause');

    // Reinstated: the broadcast stays paused until the user resumes it.
    await templateWebhook(summer.metaId, summer.name, 'REINSTATED');
    await until(async () => true);
    expect((await broadcastRow(id)).status).toBe('paused');
    expect((await accepted(recipients)).total - atPause).toBeLessThanOrEqual(1);

    // As if WhatsApp's servers had stopped answering before the pause: resuming forgets that too (decision 055).
    await t.db.pool.query('update broadcasts set unanswered_since = now() where id = $1', [id]);
    const resumed = await act(id, 'resume');
    expect(resumed.json()).toEqual({ id, status: 'sending' });
    expect(await broadcastRow(id)).toMatchObject({ status_reason: null, unanswered_since: null });
    await until(async () => (await broadcastRow(id)).status === 'completed');
    const log = await accepted(recipients);
    expect(log.total).toBe(30);
    expect([...log.perRecipient.values()].every((n) => n === 1)).toBe(true);
  }, 60_000);

  it('a pause by the user also stops the batch in flight; the rest is sent once after resume', async () => {
    const winter = await template('winter_notice', 'UTILITY');
    const recipients = numbers('4477009005', 20);
    const tag = await audience(
      'Winter',
      recipients.map((n, i) => [`Winter ${i}`, n]),
    );
    const id = await create('Winter', winter.id, tag);
    await slowEngine.tick();
    await until(async () => (await accepted(recipients)).total >= 3, 10_000, null);
    expect((await act(id, 'pause')).statusCode).toBe(200);
    const atPause = (await accepted(recipients)).total;
    await slowEngine.idle();
    expect((await accepted(recipients)).total - atPause).toBeLessThanOrEqual(1);
    expect((await messageStates(id)).queued).toBeGreaterThan(10);
    expect((await broadcastRow(id)).status_reason).toBeNull();
    expect((await act(id, 'resume')).statusCode).toBe(200);
    await until(async () => (await broadcastRow(id)).status === 'completed');
    const log = await accepted(recipients);
    expect(log.total).toBe(20);
    expect(log.perRecipient.size).toBe(20);
  }, 30_000);

  it('pauses a scheduled broadcast when it is due and its first send answers 132015; no attempt wasted', async () => {
    const autumn = await template('autumn_pause', 'UTILITY');
    const recipients = numbers('4477009004', 6);
    const tag = await audience(
      'Autumn',
      recipients.map((n, i) => [`Autumn ${i}`, n]),
    );
    const id = await create('Autumn', autumn.id, tag, Math.floor(Date.now() / 1000) + 2);
    // WhatsApp pauses the template (its webhook comes too) while the broadcast waits for its time.
    await sandbox(`/__sandbox/templates/${autumn.metaId}/status`, { status: 'PAUSED' });
    await until(
      async () =>
        (await t.db.pool.query('select status from templates where id = $1', [autumn.id])).rows[0].status ===
        'PAUSED',
      10_000,
      null,
    );
    expect((await broadcastRow(id)).status).toBe('scheduled');

    await until(async () => (await broadcastRow(id)).status === 'paused');
    const row = await broadcastRow(id);
    expect(row.status_reason).toMatch(/^WhatsApp paused the template autumn_pause: /);
    expect(await messageStates(id)).toEqual({ queued: 6 });
    const attempts = (
      await t.db.pool.query(
        'select max(attempts)::int as most from broadcast_messages where broadcast_id = $1',
        [id],
      )
    ).rows[0].most;
    expect(attempts).toBe(0);
    expect((await accepted(recipients)).total).toBe(0);
    expect((await act(id, 'resume')).statusCode).toBe(409);

    await sandbox(`/__sandbox/templates/${autumn.metaId}/status`, { status: 'APPROVED' });
    await until(
      async () =>
        (await t.db.pool.query('select status from templates where id = $1', [autumn.id])).rows[0].status ===
        'APPROVED',
      10_000,
      null,
    );
    expect((await act(id, 'resume')).statusCode).toBe(200);
    await until(async () => (await broadcastRow(id)).status === 'completed');
    const log = await accepted(recipients);
    expect(log.total).toBe(6);
    expect(log.perRecipient.size).toBe(6);
  }, 30_000);
});

describe('limited by WhatsApp (131049) and not on WhatsApp (131026)', () => {
  it('does not retry a limited message within 24 hours, retries it once after, then leaves it limited', async () => {
    // Meta does not deliver marketing templates to +1 (US) numbers: every send is limited (131049).
    const promo = await template('us_promo', 'MARKETING');
    const recipients = ['+14155561001', '+14155561002', '+14155561003'];
    const tag = await audience(
      'US promo',
      recipients.map((n, i) => [`US ${i}`, n]),
    );
    const id = await create('US promo', promo.id, tag);
    // Completes without waiting a day for the retry.
    await until(async () => {
      const row = await broadcastRow(id);
      return row.status === 'completed' && row.limited_count === 3;
    });
    const row = await broadcastRow(id);
    expect(row.failed_count).toBe(0);
    const due = (
      await t.db.pool.query(
        `select min(extract(epoch from next_attempt_at - failed_at))::int as wait from broadcast_messages
          where broadcast_id = $1 and state = 'limited'`,
        [id],
      )
    ).rows[0].wait;
    expect(due).toBe(24 * 3600);

    // 23 hours later: still not due.
    const moveBack = (hours: number) =>
      t.db.pool.query(
        `update broadcast_messages set next_attempt_at = next_attempt_at - make_interval(hours => $2),
                failed_at = failed_at - make_interval(hours => $2) where broadcast_id = $1`,
        [id, hours],
      );
    await moveBack(23);
    for (let i = 0; i < 3; i += 1) await until(async () => true);
    expect((await accepted(recipients)).total).toBe(3);
    expect((await broadcastRow(id)).status).toBe('completed');

    // 24 hours: sent again once, and limited again; the broadcast completes again.
    await moveBack(1);
    await until(async () => {
      const r = await broadcastRow(id);
      return r.status === 'completed' && (await accepted(recipients)).total === 6 && r.limited_count === 3;
    });
    const retried = (
      await t.db.pool.query('select limit_retries from broadcast_messages where broadcast_id = $1', [id])
    ).rows;
    expect(retried.every((r) => r.limit_retries === 1)).toBe(true);

    // MARKETING_LIMIT_RETRIES (1) used up: never again.
    await moveBack(48);
    for (let i = 0; i < 3; i += 1) await until(async () => true);
    expect((await accepted(recipients)).total).toBe(6);
    expect(await messageStates(id)).toEqual({ limited: 3 });
    expect((await broadcastRow(id)).status).toBe('completed');
  }, 60_000);

  it('counts limited and not on WhatsApp apart from failed and groups the report’s failures by reason', async () => {
    const mixed = await template('mixed_promo', 'MARKETING', 'Hello {{1}}, write to {{2}} soon.', {
      '1': 'name',
      '2': 'email',
    });
    const tag = await audience('Mixed', [
      ['US one', '+14155562001', 'a@x.test'],
      ['US two', '+14155562002', 'b@x.test'],
      ['Nobody', '+447700900000', 'c@x.test'],
      ['No email', '+447700901234', null],
      ['Fine one', '+447700901235', 'd@x.test'],
      ['Fine two', '+447700901236', 'e@x.test'],
    ]);
    const id = await create('Mixed', mixed.id, tag);
    await until(async () => {
      const r = await broadcastRow(id);
      return r.limited_count === 2 && r.not_on_whatsapp_count === 1 && r.delivered_count === 2;
    });
    const states = await messageStates(id);
    expect(states).toEqual({ limited: 2, not_on_whatsapp: 1, failed: 1, delivered: 2 });

    // 131026 is never retried, however long ago.
    await t.db.pool.query(
      "update broadcast_messages set next_attempt_at = now() - interval '3 days' where broadcast_id = $1 and state = 'not_on_whatsapp'",
      [id],
    );
    await until(async () => true);
    expect((await accepted(['+447700900000'])).total).toBe(1);

    const list = (
      await t.app.inject({ method: 'GET', url: '/broadcast/create/?search=Mixed', headers })
    ).json();
    expect(list.results[0]).toMatchObject({
      id,
      failed_percentage: 16.7,
      limited_percentage: 33.3,
      not_on_whatsapp_percentage: 16.7,
    });
    // The cards follow the list's search (decision 036): the whole account's are those of the unfiltered list.
    const { totals } = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
    expect(totals.failed).toBeGreaterThanOrEqual(1);
    expect(totals.limited).toBeGreaterThanOrEqual(2 + 3);
    expect(totals.not_on_whatsapp).toBeGreaterThanOrEqual(1);
    expect(list.totals).toMatchObject({ broadcasts: 1, failed: 1, limited: 2, not_on_whatsapp: 1 });

    const report = (
      await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/`, headers })
    ).json();
    expect(report.outcomes).toMatchObject({ limited: 2, not_on_whatsapp: 1, failed: 1 });
    expect(report.failure_reasons).toEqual([
      {
        code: 131049,
        outcome: 'limited',
        title: 'Limited by WhatsApp',
        count: 2,
        explanation: expect.stringContaining('per-user marketing limit'),
        action: expect.stringContaining('24 hours'),
      },
      {
        code: null,
        outcome: 'failed',
        title: 'The contact has no email for {{2}}',
        count: 1,
        explanation: expect.stringContaining('empty'),
        action: expect.any(String),
      },
      {
        code: 131026,
        outcome: 'not_on_whatsapp',
        title: 'Not on WhatsApp',
        count: 1,
        explanation: expect.stringContaining('cannot receive WhatsApp messages'),
        action: expect.any(String),
      },
    ]);
    const limitedOnly = (
      await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/?outcome=limited`, headers })
    ).json();
    expect(limitedOnly.results.map((r: { error_code: number }) => r.error_code)).toEqual([131049, 131049]);
  }, 30_000);

  it('limits a message Meta refuses at once with 131049 until a day later, and a 131026 for good', async () => {
    const note = await template('sync_note', 'UTILITY');
    const tag = await audience('Sync', [
      ['Sync one', '+447700903001'],
      ['Sync two', '+447700903002'],
    ]);
    const id = await create('Sync', note.id, tag);
    await until(async () => (await broadcastRow(id)).delivered_count === 2);
    const rows = (
      await t.db.pool.query('select id::int from broadcast_messages where broadcast_id = $1 order by id', [
        id,
      ])
    ).rows;
    // As if the sender had just had these answers (the sandbox answers both asynchronously).
    await t.db.pool.query("update broadcast_messages set state = 'sending' where broadcast_id = $1", [id]);
    const account = (await t.db.pool.query('select waba_account_id::int from broadcasts where id = $1', [id]))
      .rows[0].waba_account_id as number;
    await settleMessages(t.db.pool, account, [
      { id: rows[0].id, state: 'limited', code: 131049, title: 'Not delivered' },
      { id: rows[1].id, state: 'not_on_whatsapp', code: 131026, title: 'Message undeliverable' },
    ]);
    const settled = (
      await t.db.pool.query(
        `select state, extract(epoch from next_attempt_at - failed_at)::int as wait
           from broadcast_messages where broadcast_id = $1 order by id`,
        [id],
      )
    ).rows;
    expect(settled[0]).toEqual({ state: 'limited', wait: 24 * 3600 });
    expect(settled[1].state).toBe('not_on_whatsapp');
    expect(settled[1].wait).toBeLessThan(60);
  });

  it('takes a limited message from a failed status the sender did not see coming, and ignores a stale one', async () => {
    const note = await template('late_note', 'UTILITY');
    const tag = await audience('Late', [['Late one', '+447700902001']]);
    const id = await create('Late', note.id, tag);
    await until(async () => (await broadcastRow(id)).delivered_count === 1);
    const row = (
      await t.db.pool.query('select id, wamid from broadcast_messages where broadcast_id = $1', [id])
    ).rows[0];
    // A failed 131049 for a delivered message does not undo the delivery (states only move forward).
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        {
          id: row.wamid,
          status: 'failed',
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: '447700902001',
          biz_opaque_callback_data: String(row.id),
          errors: [
            {
              code: 131049,
              title: 'This message was not delivered to maintain healthy ecosystem engagement.',
            },
          ],
        },
      ],
    });
    expect(Object.keys(await messageStates(id))).not.toContain('limited');
    // A status naming another wamid (an earlier attempt's) does not move the row either.
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        {
          id: 'wamid.an-earlier-attempt',
          status: 'read',
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: '447700902001',
          biz_opaque_callback_data: String(row.id),
        },
      ],
    });
    const after = (
      await t.db.pool.query('select state, read_at from broadcast_messages where id = $1', [row.id])
    ).rows[0];
    expect(after).toEqual({ state: 'delivered', read_at: null });
  });
});
