import type { SandboxSnapshot } from '@herald/cloud-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { SecretBox } from '../../security/secret-box';
import { setFrequencyCap } from '../../../../../test-support/business';
import { signedInUser } from '../auth/auth-test-helpers';
import { PNG, templateMultipart } from '../templates/templates-test-helpers';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';
import { BroadcastEngine } from './sending/broadcast-engine';
import { MessageSender } from './sending/message-sender';
import { claimBatch } from './sending/sender-batch';
import { freshBroadcastRow } from './broadcast-test-helpers';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let headers: Record<string, string>;
let wabaAccountId: number;
let engine: BroadcastEngine;
let sender: MessageSender;
let approvedTemplateId: number;
let vipTagId: number;

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json());

function act(id: number, action: string) {
  return t.app.inject({ method: 'POST', url: `/broadcast/${id}/${action}/`, headers });
}

async function createBroadcast(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/broadcast/create/', headers, payload: body });
}

/** Ticks the engine until the broadcast has sent everything and its statuses have come back. */
async function runUntil(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await engine.tick();
    await engine.idle();
    await t.app.webhooks.idle();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const broadcastRow = (id: number) => freshBroadcastRow(t.db.pool, id);
const messageStates = async (id: number) =>
  (
    await t.db.pool.query<{ state: string; n: number }>(
      'select state, count(*)::int as n from broadcast_messages where broadcast_id = $1 group by state',
      [id],
    )
  ).rows.reduce<Record<string, number>>((acc, row) => ({ ...acc, [row.state]: row.n }), {});

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 30, read: 60 },
    read_rate: 0.5,
    pair_rate_window_ms: 0,
    // +1 numbers and a marketing template: Meta's US rule (131049) is tested in pauses-outcomes.int.test.ts.
    us_marketing_rule: false,
  });
  owner = await signedInUser(t, 'broadcasts@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  // Many marketing broadcasts to the same 100 people: no frequency cap in the way.
  await setFrequencyCap(t, headers, null);
  wabaAccountId = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id;

  // 100 contacts: 40 tagged VIP, of which 5 opted out, and 5 more opted out untagged.
  vipTagId = (
    await t.db.pool.query("insert into tags (waba_account_id, name) values ($1, 'VIP') returning id::int", [
      wabaAccountId,
    ])
  ).rows[0].id;
  for (let i = 0; i < 100; i += 1) {
    const optedOut = i < 5 || (i >= 40 && i < 45);
    const { rows } = await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number, email, opted_out_at)
       values ($1, $2, $3, $4, $5) returning id`,
      [
        wabaAccountId,
        `Person ${i}`,
        `+1415555${String(1000 + i)}`,
        i === 99 ? null : `p${i}@x.test`,
        optedOut ? new Date() : null,
      ],
    );
    if (i < 40)
      await t.db.pool.query(
        'insert into contact_tags (waba_account_id, contact_id, tag_id) select waba_account_id, id, $2 from contacts where id = $1',
        [rows[0].id, vipTagId],
      );
  }

  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'hello_person',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your code is {{2}}.' }],
      static_variables: { body_variable: [{ '2': 'X7' }] },
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
  });
  approvedTemplateId = template.json().id;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [
      approvedTemplateId,
    ]);
    if (rows[0].status === 'APPROVED') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  sender = new MessageSender(t.sandboxUrl, 'v21.0');
  // Tiny slices, so every broadcast below has its audience written while it sends (90 contacts: 7 + 11 × 8).
  engine = new BroadcastEngine({
    pool: t.db.pool,
    sender,
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
    audienceRows: { first: 7, slice: 11 },
  });
});

afterAll(async () => {
  await engine?.stop();
  sender?.close();
  await t.close();
});

describe('POST /broadcast/create/ validation', () => {
  it.each([
    ['a blank name', { name: '   ' }, 'name', 'Please enter a broadcast name'],
    ['an unknown template', { template_id: 999999 }, 'template_id', 'Please select a message template'],
    ['a percentage of 0', { recipients: { type: 'all', percentage: 0 } }, 'recipients.percentage', undefined],
    ['a past time', { scheduled_time: Math.floor(Date.now() / 1000) - 60 }, 'scheduled_time', undefined],
    [
      'a time over a year ahead',
      { scheduled_time: Math.floor(Date.now() / 1000) + 400 * 86_400 },
      'scheduled_time',
      undefined,
    ],
    [
      'a foreign tag',
      { recipients: { type: 'filtered', tag_ids: [987654], percentage: 50 } },
      'recipients.tag_ids',
      undefined,
    ],
  ])('refuses %s naming the field', async (_label, override, field, message) => {
    const response = await createBroadcast({
      name: 'Bad one',
      template_id: approvedTemplateId,
      recipients: { type: 'all', percentage: 100 },
      ...override,
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().errors[0];
    expect(error.field).toBe(field);
    if (message) expect(error.message).toBe(message);
    expect(response.json().message).toBeTruthy();
  });

  it('refuses a template that is not approved', async () => {
    const { rows } = await t.db.pool.query(
      `insert into templates (waba_account_id, name, language, category, status, components)
       values ($1, 'draft_one', 'en_US', 'MARKETING', 'DRAFT', '[]') returning id::int`,
      [wabaAccountId],
    );
    const response = await createBroadcast({
      name: 'x',
      template_id: rows[0].id,
      recipients: { type: 'all', percentage: 10 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('DRAFT');
  });
});

describe('sending', () => {
  it('samples the audience exactly: tag members not opted out, round(n × p / 100)', async () => {
    const response = await createBroadcast({
      name: 'VIP half',
      template_id: approvedTemplateId,
      recipients: { type: 'filtered', tag_ids: [vipTagId], percentage: 50 },
    });
    expect(response.statusCode).toBe(201);
    // 40 tagged, 5 opted out: 35 × 50% = 17.5 → 18.
    expect(response.json()).toMatchObject({ status: 'sending', total_recipients: 18 });
    const id = response.json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const { rows } = await t.db.pool.query(
      `select c.opted_out_at, exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = $2) as vip
         from broadcast_messages m join contacts c on c.id = m.contact_id where m.broadcast_id = $1`,
      [id, vipTagId],
    );
    expect(rows).toHaveLength(18);
    expect(rows.every((r) => r.opted_out_at === null && r.vip)).toBe(true);
  });

  it('freezes the whole sample at the start and writes its rows in hash order, slice by slice', async () => {
    const response = await createBroadcast({
      name: 'Sliced',
      template_id: approvedTemplateId,
      recipients: { type: 'all', percentage: 60 },
    });
    const id = response.json().id;
    expect(await engine.startDue()).toBe(1);
    // Started: the first rows exist and the rest of the frozen sample waits in broadcast_audiences.
    const started = await t.db.pool.query(
      'select cardinality(contact_ids) as frozen, written from broadcast_audiences where broadcast_id = $1',
      [id],
    );
    const total = (await broadcastRow(id)).total_recipients;
    expect(started.rows).toEqual([{ frozen: total, written: 7 }]);
    expect((await messageStates(id)).queued).toBe(7);
    // A contact added after the start is not part of this broadcast, even though its rows are still being written.
    await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, 'Late', '+14155558888')`,
      [wabaAccountId],
    );
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const { rows } = await t.db.pool.query<{ contact_id: string; whatsapp_number: string }>(
      'select contact_id, whatsapp_number from broadcast_messages where broadcast_id = $1 order by id',
      [id],
    );
    const expected = await t.db.pool.query<{ id: string }>(
      `select id from contacts where waba_account_id = $1 and opted_out_at is null and whatsapp_number <> '+14155558888'
        order by md5($2::text || ':' || id::text)`,
      [wabaAccountId, id],
    );
    const sample = expected.rows.slice(0, Math.round((expected.rows.length * 60) / 100)).map((r) => r.id);
    expect(rows.map((r) => r.contact_id)).toEqual(sample);
    expect(new Set(rows.map((r) => r.whatsapp_number)).size).toBe(rows.length);
    expect(
      (await t.db.pool.query('select 1 from broadcast_audiences where broadcast_id = $1', [id])).rows,
    ).toHaveLength(0);
    await t.db.pool.query(`delete from contacts where whatsapp_number = '+14155558888'`);
  });

  it('does not send to a contact who opts out after the broadcast started', async () => {
    const response = await createBroadcast({
      name: 'Changed their mind',
      template_id: approvedTemplateId,
      recipients: { type: 'all', percentage: 100 },
    });
    const id = response.json().id;
    expect(await engine.startDue()).toBe(1);
    const { rows } = await t.db.pool.query<{ contact_id: string; whatsapp_number: string }>(
      `update contacts set opted_out_at = now()
        where id = (select contact_id from broadcast_messages where broadcast_id = $1 order by id desc limit 1)
        returning id as contact_id, whatsapp_number`,
      [id],
    );
    const quitter = rows[0]!;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const message = await t.db.pool.query(
      'select state, error_title from broadcast_messages where broadcast_id = $1 and contact_id = $2',
      [id, quitter.contact_id],
    );
    expect(message.rows).toEqual([
      { state: 'failed', error_title: 'The contact opted out after the broadcast started; not sent' },
    ]);
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=1000`,
    )) as { data: Array<{ to: string; biz_opaque_callback_data: string }> };
    const sentIds = new Set(log.data.map((m) => m.biz_opaque_callback_data));
    const row = await t.db.pool.query(
      'select id::text from broadcast_messages where broadcast_id = $1 and contact_id = $2',
      [id, quitter.contact_id],
    );
    expect(sentIds.has(row.rows[0].id)).toBe(false);
    await t.db.pool.query('update contacts set opted_out_at = null where id = $1', [quitter.contact_id]);
  });

  it('pauses (nothing more is claimed), resumes, and still sends each recipient once', async () => {
    const before = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
    )) as { total: number };
    const id = (
      await createBroadcast({
        name: 'Paused one',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 100 },
      })
    ).json().id;
    expect(await engine.startDue()).toBe(1);
    const paused = await act(id, 'pause');
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toEqual({ id, status: 'paused' });
    for (let i = 0; i < 3; i += 1) {
      await engine.tick();
      await engine.idle();
    }
    expect(await messageStates(id)).toEqual({ queued: 90 });
    expect((await broadcastRow(id)).status).toBe('paused');

    const resumed = await act(id, 'resume');
    expect(resumed.json()).toEqual({ id, status: 'sending' });
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const after = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
    )) as { total: number };
    expect(after.total - before.total).toBe(90);
  });

  it('cancels: queued messages end cancelled and unsent, the rest of the audience is never written', async () => {
    const id = (
      await createBroadcast({
        name: 'Called off',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 100 },
      })
    ).json().id;
    expect(await engine.startDue()).toBe(1);
    const cancelled = await act(id, 'cancel');
    expect(cancelled.json()).toEqual({ id, status: 'cancelled' });
    await engine.tick();
    await engine.idle();
    expect(await messageStates(id)).toEqual({ cancelled: 7 });
    const row = await broadcastRow(id);
    expect(row.status).toBe('cancelled');
    expect(row.completed_at).not.toBeNull();
    expect(row.failed_count).toBe(0);

    // A few seconds ahead: one second was in the past by the time a loaded machine read the request (400).
    const due = Math.floor(Date.now() / 1000) + 3;
    const later = (
      await createBroadcast({
        name: 'Not tomorrow after all',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 100 },
        scheduled_time: due,
      })
    ).json().id;
    expect((await act(later, 'cancel')).statusCode).toBe(200);
    // Past its time: a cancelled broadcast never starts.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due * 1000 + 100 - Date.now())));
    expect(await engine.startDue()).toBe(0);
    expect(await messageStates(later)).toEqual({});
  });

  it('refuses an action the status does not allow (409), an unknown one (400) and another account’s broadcast (404)', async () => {
    const id = (
      await createBroadcast({
        name: 'Done soon',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 5 },
      })
    ).json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const resume = await act(id, 'resume');
    expect(resume.statusCode).toBe(409);
    expect(resume.json().errors[0]).toEqual({
      field: 'status',
      message: 'A completed broadcast cannot be resumed',
    });
    expect((await act(id, 'cancel')).json().message).toBe('A completed broadcast cannot be cancelled');
    const unknown = await act(id, 'stop');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('action');
    expect((await act(999_999, 'pause')).statusCode).toBe(404);
    const stranger = await signedInUser(t, 'stranger-broadcasts@herald.test', 'Stranger Co');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/broadcast/${id}/cancel/`,
      headers: { authorization: `Bearer ${stranger.accessToken}`, 'x-waba-id': stranger.business.waba_id },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await broadcastRow(id)).status).toBe('completed');
  });

  it('personalises each message, sends each recipient once, and counts statuses from the webhooks', async () => {
    const response = await createBroadcast({
      name: 'Everyone',
      template_id: approvedTemplateId,
      recipients: { type: 'all', percentage: 100 },
    });
    const id = response.json().id;
    expect(response.json().total_recipients).toBe(90);
    await runUntil(async () => {
      const row = await broadcastRow(id);
      return row.status === 'completed' && row.delivered_count === 90;
    });
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=1000`,
    )) as {
      data: Array<{ to: string; biz_opaque_callback_data: string; parameters: Record<string, string[]> }>;
    };
    const mine = log.data.filter(
      (m) => (m.parameters.body ?? []).length > 0 && !Number.isNaN(Number(m.biz_opaque_callback_data)),
    );
    const person7 = mine.find((m) => m.to === '14155551007');
    expect(person7?.parameters.body).toEqual(['Person 7', 'X7']);
    const row = await broadcastRow(id);
    expect(row.accepted_count).toBe(90);
    expect(row.delivered_count).toBe(90);

    const list = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
    const item = list.results.find((r: { id: number }) => r.id === id);
    expect(item).toMatchObject({
      sent_percentage: 100,
      delivered_percentage: 100,
      status: 'completed',
      total_recipients: 90,
    });
    expect(list.totals.broadcasts).toBeGreaterThanOrEqual(2);
  });

  it('sends an image-header template: the image is uploaded to the number once and named by its id', async () => {
    const body = templateMultipart(
      {
        name: 'picture_news',
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Hi {{1}}, see what is new.' },
        ],
        static_variables: {},
        dynamic_variables: { body_variable: { '1': 'name' } },
      },
      { name: 'news.png', type: 'image/png', bytes: PNG },
    );
    const created = await t.app.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const templateId = created.json().id;
    const deadline = Date.now() + 10_000;
    while (
      (await t.db.pool.query('select status from templates where id = $1', [templateId])).rows[0].status !==
      'APPROVED'
    ) {
      if (Date.now() > deadline) throw new Error('the image template was never approved');
      await t.app.webhooks.idle();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const id = (
      await createBroadcast({
        name: 'Pictures',
        template_id: templateId,
        recipients: { type: 'filtered', tag_ids: [vipTagId], percentage: 20 },
      })
    ).json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    expect(await messageStates(id)).not.toHaveProperty('failed');
    const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as SandboxSnapshot;
    const uploads = state.media.filter((m) => m.phone_number_id === owner.business.phone_number_id);
    expect(uploads).toEqual([expect.objectContaining({ mime_type: 'image/png', bytes: PNG.length })]);
    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=100000`,
    )) as { data: Array<{ template: { name: string }; parameters: Record<string, string[]> }> };
    const sent = log.data.filter((m) => m.template.name === 'picture_news');
    expect(sent).toHaveLength((await broadcastRow(id)).total_recipients);
    expect(sent.every((m) => m.parameters.header?.[0] === uploads[0]!.id)).toBe(true);
  });

  it('fails a recipient missing a dynamic value with a clear reason instead of sending a blank', async () => {
    const { rows } = await t.db.pool.query(
      `insert into templates (waba_account_id, name, language, category, status, components, dynamic_variables, meta_template_id)
       values ($1, 'needs_email', 'en_US', 'MARKETING', 'APPROVED', '[{"type":"BODY","text":"Mail {{1}}"}]',
               '{"body_variable":{"1":"email"}}', null) returning id::int`,
      [wabaAccountId],
    );
    const response = await createBroadcast({
      name: 'Emails',
      template_id: rows[0].id,
      recipients: { type: 'all', percentage: 100 },
    });
    const id = response.json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const failed = await t.db.pool.query(
      `select m.error_title from broadcast_messages m join contacts c on c.id = m.contact_id
        where m.broadcast_id = $1 and c.email is null`,
      [id],
    );
    expect(failed.rows).toEqual([{ error_title: 'The contact has no email for {{1}}' }]);
  });

  it('retries 5xx and 130429 bursts until every message is accepted exactly once', async () => {
    await sandbox('/__sandbox/faults', {
      error_rate_5xx: 0.05,
      rate_limit_burst: { every_n: 20, length: 3 },
    });
    try {
      const before = (await sandbox(
        `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
      )) as {
        total: number;
      };
      const response = await createBroadcast({
        name: 'Faulty',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 100 },
      });
      const id = response.json().id;
      await runUntil(async () => (await broadcastRow(id)).status === 'completed', 110_000);
      expect(await messageStates(id)).not.toHaveProperty('failed');
      const after = (await sandbox(
        `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
      )) as {
        total: number;
      };
      expect(after.total - before.total).toBe(90);
      const retried = await t.db.pool.query(
        'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and attempts > 1',
        [id],
      );
      expect(retried.rows[0].n).toBeGreaterThan(0);
    } finally {
      await sandbox('/__sandbox/faults', { error_rate_5xx: 0, rate_limit_burst: null });
    }
  }, 120_000);

  it('records Meta’s 131026 as not on WhatsApp (not a failure) with its code and title', async () => {
    const { rows } = await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, 'Nobody', '+14155550000') returning id`,
      [wabaAccountId],
    );
    const tag = (
      await t.db.pool.query(
        "insert into tags (waba_account_id, name) values ($1, 'Ghost') returning id::int",
        [wabaAccountId],
      )
    ).rows[0].id;
    await t.db.pool.query(
      'insert into contact_tags (waba_account_id, contact_id, tag_id) select waba_account_id, id, $2 from contacts where id = $1',
      [rows[0].id, tag],
    );
    const id = (
      await createBroadcast({
        name: 'Ghost',
        template_id: approvedTemplateId,
        recipients: { type: 'filtered', tag_ids: [tag], percentage: 100 },
      })
    ).json().id;
    await runUntil(async () => (await broadcastRow(id)).not_on_whatsapp_count === 1);
    const message = (
      await t.db.pool.query(
        'select state, error_code, error_title from broadcast_messages where broadcast_id = $1',
        [id],
      )
    ).rows[0];
    expect(message).toMatchObject({ state: 'not_on_whatsapp', error_code: 131026 });
    expect(message.error_title).toBeTruthy();
  });

  it('starts a scheduled broadcast when it is due, not before', async () => {
    const due = Math.floor(Date.now() / 1000) + 2;
    const response = await createBroadcast({
      name: 'Later',
      template_id: approvedTemplateId,
      recipients: { type: 'all', percentage: 10 },
      scheduled_time: due,
    });
    expect(response.json().status).toBe('scheduled');
    const id = response.json().id;
    await engine.tick();
    expect((await broadcastRow(id)).status).toBe('scheduled');
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    expect((await broadcastRow(id)).started_at.getTime()).toBeGreaterThanOrEqual(due * 1000 - 50);
  });
});

describe('crash safety and status webhooks', () => {
  async function deliver(statuses: object[]) {
    await postMessagesWebhook(t, owner.business.waba_id, { statuses });
  }

  it('never resends a row a dead sender may have requested (its status webhook settles it); sends once the rows it only claimed', async () => {
    const id = (
      await createBroadcast({
        name: 'Crash',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 5 },
      })
    ).json().id;
    // Freeze the audience, then pretend a sender claimed three rows, marked two requested (request-marks.ts)
    // and died holding an expired lease.
    await sandbox('/__sandbox/config', {
      status_delays_ms: { sent: 60_000, delivered: 60_000, read: 60_000 },
    });
    const phone = (
      await t.db.pool.query('select phone_number_id::int as p from broadcasts where id = $1', [id])
    ).rows[0].p;
    await t.db.pool.query("update broadcasts set status = 'sending', started_at = now() where id = $1", [id]);
    await t.db.pool.query(
      `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state)
       select $2, $1, id, whatsapp_number, case when rn <= 3 then 'sending' else 'queued' end
         from (select id, whatsapp_number, row_number() over (order by id) as rn from contacts
                where waba_account_id = $2 and opted_out_at is null order by id limit 5) c`,
      [id, wabaAccountId],
    );
    await t.db.pool.query(
      `update broadcast_messages m set attempts = 1, requested_at = case when r.rn <= 2 then now() end
         from (select id, row_number() over (order by id) as rn from broadcast_messages where broadcast_id = $1) r
        where m.id = r.id and m.state = 'sending'`,
      [id],
    );
    await t.db.pool.query(
      `insert into sender_leases (phone_number_id, holder, expires_at) values ($1, 'dead-worker', now() - interval '1 second')
       on conflict (phone_number_id) do update set holder = 'dead-worker', expires_at = now() - interval '1 second'`,
      [phone],
    );
    const before = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
    )) as { total: number };
    await engine.tick();
    await engine.idle();
    const states = await messageStates(id);
    expect(states).toMatchObject({ unconfirmed: 2, accepted: 3 });
    // The claimed row never requested went back to the queue, its attempt not counted, and was sent once.
    const claimedOnly = (
      await t.db.pool.query(
        'select state, attempts from broadcast_messages where broadcast_id = $1 order by id offset 2 limit 1',
        [id],
      )
    ).rows[0];
    expect(claimedOnly).toEqual({ state: 'accepted', attempts: 1 });
    const after = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=0`,
    )) as { total: number };
    expect(after.total - before.total).toBe(3);
    expect((await broadcastRow(id)).status).toBe('sending');

    const orphans = (
      await t.db.pool.query(
        "select id from broadcast_messages where broadcast_id = $1 and state = 'unconfirmed'",
        [id],
      )
    ).rows;
    await deliver(
      orphans.map((o) => ({
        id: `wamid.crash${o.id}`,
        status: 'delivered',
        timestamp: '1',
        biz_opaque_callback_data: String(o.id),
      })),
    );
    expect(await messageStates(id)).toMatchObject({ delivered: 2 });
    await engine.tick();
    expect((await broadcastRow(id)).status).toBe('completed');
    await sandbox('/__sandbox/config', { status_delays_ms: { sent: 10, delivered: 30, read: 60 } });
  });

  it('resumes the broadcasts of a number in the order they started, not by id', async () => {
    // The smaller id was scheduled ahead and started just now; the larger one started an hour ago and was
    // interrupted (a restart). The interrupted one goes on first.
    const create = async (name: string) =>
      (
        await createBroadcast({
          name,
          template_id: approvedTemplateId,
          recipients: { type: 'all', percentage: 5 },
        })
      ).json().id as number;
    const scheduledAhead = await create('Scheduled ahead');
    const interrupted = await create('Interrupted');
    await t.db.pool.query(
      `update broadcasts set status = 'sending',
              started_at = case when id = $2 then now() - interval '1 hour' else now() end
        where id = any($1::bigint[])`,
      [[scheduledAhead, interrupted], interrupted],
    );
    for (const id of [scheduledAhead, interrupted]) {
      await t.db.pool.query(
        `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number)
         select $2, $1, id, whatsapp_number from contacts
          where waba_account_id = $2 and opted_out_at is null order by id limit 3`,
        [id, wabaAccountId],
      );
    }
    const phone = (
      await t.db.pool.query('select phone_number_id::int as p from broadcasts where id = $1', [interrupted])
    ).rows[0].p;
    try {
      const batch = await claimBatch(t.db.pool, phone);
      expect(batch.map((message) => message.broadcast_id)).toEqual([
        interrupted,
        interrupted,
        interrupted,
        scheduledAhead,
        scheduledAhead,
        scheduledAhead,
      ]);
    } finally {
      // Not to be sent by the tests after this one.
      await t.db.pool.query(
        `with b as (update broadcasts set status = 'cancelled' where id = any($1::bigint[]))
         update broadcast_messages set state = 'cancelled' where broadcast_id = any($1::bigint[])`,
        [[scheduledAhead, interrupted]],
      );
    }
  });

  it('moves states only forward: duplicated and reordered statuses keep counts exact', async () => {
    const id = (
      await createBroadcast({
        name: 'Order',
        template_id: approvedTemplateId,
        recipients: { type: 'all', percentage: 2 },
      })
    ).json().id;
    await sandbox('/__sandbox/config', {
      status_delays_ms: { sent: 60_000, delivered: 60_000, read: 60_000 },
    });
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const rows = (
      await t.db.pool.query('select id, wamid from broadcast_messages where broadcast_id = $1 order by id', [
        id,
      ])
    ).rows;
    expect(rows).toHaveLength(2);
    const [a, b] = rows;
    await deliver([
      { id: a.wamid, status: 'read', timestamp: '3' },
      { id: a.wamid, status: 'delivered', timestamp: '2' },
      { id: b.wamid, status: 'delivered', timestamp: '2' },
    ]);
    await deliver([
      { id: a.wamid, status: 'sent', timestamp: '1' },
      { id: b.wamid, status: 'delivered', timestamp: '2' },
      { id: b.wamid, status: 'failed', timestamp: '4', errors: [{ code: 131050, title: 'stopped' }] },
    ]);
    expect(await messageStates(id)).toEqual({ read: 1, delivered: 1 });
    const row = await broadcastRow(id);
    expect({
      accepted: row.accepted_count,
      delivered: row.delivered_count,
      read: row.read_count,
      failed: row.failed_count,
    }).toEqual({
      accepted: 2,
      delivered: 2,
      read: 1,
      failed: 0,
    });
    await sandbox('/__sandbox/config', { status_delays_ms: { sent: 10, delivered: 30, read: 60 } });
  });
});

describe('GET /broadcast/create/', () => {
  it('lists newest first with search and paging fields, for the selected account only', async () => {
    const list = (
      await t.app.inject({ method: 'GET', url: '/broadcast/create/?search=vip', headers })
    ).json();
    expect(list.results.map((r: { name: string }) => r.name)).toEqual(['VIP half']);
    const oldest = (
      await t.app.inject({ method: 'GET', url: '/broadcast/create/?sort=oldest', headers })
    ).json();
    expect(oldest.results[0].name).toBe('VIP half');
    const stranger = await signedInUser(t, 'stranger-broadcasts@acme.test');
    const theirs = (
      await t.app.inject({
        method: 'GET',
        url: '/broadcast/create/',
        headers: { authorization: `Bearer ${stranger.accessToken}` },
      })
    ).json();
    expect(theirs.count).toBe(0);
  });
});

describe('GET /broadcast/{id}/recipients/', () => {
  const report = (id: number, query = '', as = headers) =>
    t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/${query}`, headers: as });

  it('reports each recipient’s outcome with Meta’s error, counts per outcome, and filters by outcome', async () => {
    const tag = (
      await t.db.pool.query(
        "insert into tags (waba_account_id, name) values ($1, 'Report') returning id::int",
        [wabaAccountId],
      )
    ).rows[0].id;
    for (const [name, number] of [
      ['Unreachable', '+14155570000'],
      ['Reachable One', '+14155571111'],
      ['Reachable Two', '+14155572222'],
    ]) {
      const { rows } = await t.db.pool.query(
        'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3) returning id',
        [wabaAccountId, name, number],
      );
      await t.db.pool.query(
        'insert into contact_tags (waba_account_id, contact_id, tag_id) select waba_account_id, id, $2 from contacts where id = $1',
        [rows[0].id, tag],
      );
    }
    const id = (
      await createBroadcast({
        name: 'Report',
        template_id: approvedTemplateId,
        recipients: { type: 'filtered', tag_ids: [tag], percentage: 100 },
      })
    ).json().id;
    await runUntil(async () => {
      const row = await broadcastRow(id);
      // Completed too: the last status can land after the tick's completion step (the report shows the status).
      return row.not_on_whatsapp_count === 1 && row.delivered_count === 2 && row.status === 'completed';
    });

    const all = await report(id);
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.broadcast).toEqual({
      id,
      name: 'Report',
      template_name: expect.any(String),
      status: 'completed',
      scheduled: expect.any(String),
      audience: {
        type: 'filtered',
        tags: ['Report'],
        percentage: 100,
        leave_out_us: false,
        from_broadcast_id: null,
        recipients: 3,
        segment: null,
      },
      spend_cap: null,
      link_destination: null,
    });
    expect(body.count).toBe(3);
    expect(body.outcomes.not_on_whatsapp).toBe(1);
    expect(body.outcomes.delivered + body.outcomes.read).toBe(2);
    expect(body.outcomes.pending + body.outcomes.sent + body.outcomes.cancelled).toBe(0);
    expect(body.results.map((r: { whatsapp_number: string }) => r.whatsapp_number)).toEqual([
      '+14155570000',
      '+14155571111',
      '+14155572222',
    ]);

    const failed = (await report(id, '?outcome=not_on_whatsapp')).json();
    expect(failed.count).toBe(1);
    expect(failed.results).toEqual([
      {
        id: expect.any(Number),
        contact_name: 'Unreachable',
        whatsapp_number: '+14155570000',
        outcome: 'not_on_whatsapp',
        error_code: 131026,
        error_title: expect.any(String),
        updated_at: expect.any(String),
        reply: null,
        clicked_at: null,
      },
    ]);
    expect(failed.next).toBeNull();

    // A deleted contact stays in the report by number.
    const contactId = (
      await t.db.pool.query(
        "select id from contacts where whatsapp_number = '+14155570000' and waba_account_id = $1",
        [wabaAccountId],
      )
    ).rows[0].id;
    await t.app.inject({ method: 'DELETE', url: `/recipient/${contactId}/`, headers });
    const after = (await report(id, '?outcome=not_on_whatsapp')).json();
    expect(after.results[0]).toMatchObject({ contact_name: null, whatsapp_number: '+14155570000' });
  });

  it('pages 25 recipients at a time with absolute links', async () => {
    const list = (await t.app.inject({ method: 'GET', url: '/broadcast/create/', headers })).json();
    const vip = list.results.reduce(
      (most: { total_recipients: number }, row: { total_recipients: number }) =>
        row.total_recipients > most.total_recipients ? row : most,
    );
    expect(vip.total_recipients).toBeGreaterThan(25);
    const first = (await report(vip.id)).json();
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(new RegExp(`^http://[^/]+/broadcast/${vip.id}/recipients/\\?page=2$`));
    const numbers: string[] = [];
    let page = first;
    for (let n = 1; ; n += 1) {
      expect(page.count).toBe(vip.total_recipients);
      expect(page.results).toHaveLength(Math.min(25, vip.total_recipients - (n - 1) * 25));
      if (n > 1) expect(page.previous).toMatch(new RegExp(`\\?page=${n - 1}$`));
      numbers.push(...page.results.map((r: { whatsapp_number: string }) => r.whatsapp_number));
      if (!page.next) break;
      page = (await report(vip.id, `?page=${n + 1}`)).json();
    }
    expect(new Set(numbers).size).toBe(vip.total_recipients);
    expect([...numbers].sort()).toEqual(numbers);
  });

  it('answers 400 naming the field for a bad outcome or page, 404 for another account’s broadcast', async () => {
    const list = (
      await t.app.inject({ method: 'GET', url: '/broadcast/create/?search=VIP', headers })
    ).json();
    const id = list.results[0].id;
    const badOutcome = await report(id, '?outcome=lost');
    expect(badOutcome.statusCode).toBe(400);
    expect(badOutcome.json().errors[0].field).toBe('outcome');
    const badPage = await report(id, '?page=0');
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().errors[0].field).toBe('page');
    const stranger = await signedInUser(t, 'stranger-report@acme.test');
    const theirs = await report(id, '', {
      authorization: `Bearer ${stranger.accessToken}`,
      'x-waba-id': stranger.business.waba_id,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().errors[0].field).toBe('id');
  });
});

// Keeps the type import used when the sandbox state is read in future tests.
export type { SandboxSnapshot };
