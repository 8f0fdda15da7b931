import { TEST_SEND } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { startNextDueBroadcast } from '../audience/audience-writer';
import { setPortfolioTier } from './messaging-limit';

// Decision 037: the confirmation's figures are the estimate's, a retarget audience is frozen at
// creation (opted-out left out, another account's broadcast refused), and 'Send test' reaches the sandbox
// without being a broadcast while it counts in the messaging limit and is rate-limited per account.
let t: TestApp;
type Owner = Awaited<ReturnType<typeof signedInUser>>;
let owner: Owner;
let other: Owner;
let headers: Record<string, string>;
let otherHeaders: Record<string, string>;
let wabaAccountId: number;
let otherWabaAccountId: number;
let templateId: number;
let otherTemplateId: number;
let sourceId: number;
/** The owner's contacts by index, and the state of each one's message in the source broadcast. */
let contactIds: number[];
const STATES = ['read', 'delivered', 'sent', 'delivered', 'failed', 'read', 'sent', 'delivered'];

const sandbox = (path: string, body?: object) =>
  fetch(`${t.sandboxUrl}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  }).then((r) => r.json() as Promise<Record<string, unknown>>);

const post = (url: string, payload: object, as = headers) =>
  t.app.inject({ method: 'POST', url, headers: as, payload });

const accountId = async (wabaId: string) =>
  (await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [wabaId])).rows[0]
    .id as number;

async function approvedTemplate(as: Record<string, string>, name: string) {
  const created = await post(
    '/meta/templates/',
    {
      name,
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order is ready.' }],
      dynamic_variables: { body_variable: { '1': 'name' } },
    },
    as,
  );
  expect(created.statusCode).toBe(201);
  const id = created.json().id as number;
  const deadline = Date.now() + 10_000;
  for (;;) {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [id]);
    if (rows[0].status === 'APPROVED') return id;
    if (Date.now() > deadline) throw new Error('template not approved');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addContacts(waba: number, prefix: string, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const { rows } = await t.db.pool.query(
      `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3) returning id::int`,
      [waba, `${prefix} ${i}`, `+4477009${prefix === 'Own' ? '00' : '01'}${String(100 + i)}`],
    );
    ids.push(rows[0].id);
  }
  return ids;
}

const broadcastCount = async () =>
  (await t.db.pool.query('select count(*)::int as n from broadcasts')).rows[0].n as number;
const reached = async (number: string) =>
  (
    await t.db.pool.query('select count(*)::int as n from portfolio_reach where whatsapp_number = $1', [
      number,
    ])
  ).rows[0].n as number;

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await sandbox('/__sandbox/config', {
    webhook_url: `${address}/webhooks/whatsapp`,
    review_delay_ms: 50,
    status_delays_ms: { sent: 10, delivered: 20, read: 30 },
    pair_rate_window_ms: 0,
  });
  owner = await signedInUser(t, 'safely@herald.test');
  other = await signedInUser(t, 'other@herald.test', 'Other Shop');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  otherHeaders = { authorization: `Bearer ${other.accessToken}`, 'x-waba-id': other.business.waba_id };
  wabaAccountId = await accountId(owner.business.waba_id);
  otherWabaAccountId = await accountId(other.business.waba_id);
  templateId = await approvedTemplate(headers, 'order_ready');
  otherTemplateId = await approvedTemplate(otherHeaders, 'other_ready');
  contactIds = await addContacts(wabaAccountId, 'Own', STATES.length);
  await addContacts(otherWabaAccountId, 'Other', 2);

  // A finished broadcast to the eight contacts, each message in its state (as the engine and webhooks leave them).
  const phone = await t.db.pool.query('select id from phone_numbers where waba_account_id = $1', [
    wabaAccountId,
  ]);
  const { rows } = await t.db.pool.query(
    `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                             audience, scheduled_at, status, total_recipients)
     values ($1, $2, $3, 'order_ready', 'en_US', 'Spring Sale', '{"type":"all","tag_ids":null,"percentage":100}',
             now() - interval '1 hour', 'completed', $4) returning id::int`,
    [wabaAccountId, phone.rows[0].id, templateId, STATES.length],
  );
  sourceId = rows[0].id;
  for (const [i, state] of STATES.entries()) {
    await t.db.pool.query(
      `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state)
       select waba_account_id, $1, id, whatsapp_number, $3 from contacts where id = $2`,
      [sourceId, contactIds[i], state],
    );
  }
});

afterAll(async () => {
  await t?.close();
});

const notRead = { kind: 'broadcast_recipients', broadcast_id: 0, filter: { outcome: 'not_read' } };

describe('retargeting an earlier broadcast’s recipients', () => {
  it('estimates, then freezes at creation the recipients matching the filter, opted-out left out', async () => {
    // Of the five sent or delivered (1, 2, 3, 6, 7), contact 3 has opted out since.
    await t.db.pool.query('update contacts set opted_out_at = now() where id = $1', [contactIds[3]]);
    const audience = { ...notRead, broadcast_id: sourceId };
    const estimate = await post('/broadcast/estimate/', { template_id: templateId, audience });
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json().recipients).toBe(4);

    const created = await post('/broadcast/create/', {
      name: 'Reminder',
      template_id: templateId,
      audience,
      scheduled_time: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(created.statusCode).toBe(201);
    // The figure the confirmation names (the estimate's) is the broadcast's.
    expect(created.json().total_recipients).toBe(estimate.json().recipients);
    const id = created.json().id as number;

    // Later changes to the source do not move the frozen list: contact 1 reads it now.
    await t.db.pool.query(
      `update broadcast_messages set state = 'read' where broadcast_id = $1 and contact_id = $2`,
      [sourceId, contactIds[1]],
    );
    await t.db.pool.query(`update broadcasts set scheduled_at = now() where id = $1`, [id]);
    expect(await startNextDueBroadcast(t.db.pool, 1000)).toBe(true);
    const { rows } = await t.db.pool.query<{ contact_id: number }>(
      'select contact_id::int from broadcast_messages where broadcast_id = $1 order by contact_id',
      [id],
    );
    expect(rows.map((r) => r.contact_id)).toEqual([1, 2, 6, 7].map((i) => contactIds[i]));
    const row = (await t.db.pool.query('select total_recipients, status from broadcasts where id = $1', [id]))
      .rows[0];
    expect(row).toEqual({ total_recipients: 4, status: 'sending' });
    await t.db.pool.query('update contacts set opted_out_at = null where id = $1', [contactIds[3]]);
  });

  it('takes any report outcome and replied, and every recipient without a filter', async () => {
    const failed = await post('/broadcast/estimate/', {
      audience: { kind: 'broadcast_recipients', broadcast_id: sourceId, filter: { outcome: 'failed' } },
    });
    expect(failed.json().recipients).toBe(1);
    const notReplied = await post('/broadcast/estimate/', {
      audience: { kind: 'broadcast_recipients', broadcast_id: sourceId, filter: { replied: false } },
    });
    expect(notReplied.json().recipients).toBe(STATES.length);
    const everyone = await post('/broadcast/estimate/', {
      audience: { kind: 'broadcast_recipients', broadcast_id: sourceId },
    });
    expect(everyone.json().recipients).toBe(STATES.length);
  });

  it('narrows the list to `recipients` when both are given: the tags, then the percentage', async () => {
    // Not read now: contacts 2, 3, 6 and 7 (contact 1 read it since). Tagged: 0, 2 and 6.
    const tag = (
      await t.db.pool.query(
        "insert into tags (waba_account_id, name) values ($1, 'Late') returning id::int",
        [wabaAccountId],
      )
    ).rows[0].id as number;
    for (const i of [0, 2, 6]) {
      await t.db.pool.query(
        'insert into contact_tags (waba_account_id, contact_id, tag_id) select waba_account_id, id, $2 from contacts where id = $1',
        [contactIds[i], tag],
      );
    }
    const audience = { ...notRead, broadcast_id: sourceId };
    const both = (percentage: number) =>
      post('/broadcast/estimate/', {
        audience,
        recipients: { type: 'filtered', tag_ids: [tag], percentage },
      });
    expect((await both(100)).json().recipients).toBe(2);
    expect((await both(50)).json().recipients).toBe(1);
    const all = await post('/broadcast/estimate/', {
      audience,
      recipients: { type: 'all', percentage: 100 },
    });
    expect(all.json().recipients).toBe(4);
  });

  it('refuses another account’s broadcast as if it did not exist', async () => {
    const audience = { ...notRead, broadcast_id: sourceId };
    for (const url of ['/broadcast/estimate/', '/broadcast/create/']) {
      const answer = await post(
        url,
        { name: 'Theirs', template_id: otherTemplateId, audience },
        otherHeaders,
      );
      expect(answer.statusCode).toBe(404);
      expect(answer.json().errors).toEqual([
        { field: 'audience.broadcast_id', message: 'Broadcast not found' },
      ]);
    }
    expect(
      (
        await t.db.pool.query('select count(*)::int as n from broadcasts where waba_account_id = $1', [
          otherWabaAccountId,
        ])
      ).rows[0].n,
    ).toBe(0);
  });

  it.each([
    ['a wrong kind', { audience: { kind: 'tags', broadcast_id: 1 } }, 'audience.kind'],
    [
      'an unknown outcome',
      { audience: { ...notRead, broadcast_id: 1, filter: { outcome: 'lost' } } },
      'audience.filter.outcome',
    ],
    ['a bad broadcast id', { audience: { ...notRead, broadcast_id: -3 } }, 'audience.broadcast_id'],
    ['no audience at all', {}, 'recipients'],
  ])('answers 400 naming the field for %s', async (_what, body, field) => {
    const answer = await post('/broadcast/create/', { name: 'Bad', template_id: templateId, ...body });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});

describe('the confirmation’s figures', () => {
  it('are the estimate’s for an all-contacts audience too', async () => {
    const recipients = { type: 'all', percentage: 50 };
    const estimate = await post('/broadcast/estimate/', { template_id: templateId, recipients });
    const created = await post('/broadcast/create/', {
      name: 'Half',
      template_id: templateId,
      recipients,
      scheduled_time: Math.floor(Date.now() / 1000) + 7200,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().total_recipients).toBe(estimate.json().recipients);
    expect(estimate.json().recipients).toBe(4);
  });
});

describe('POST /broadcast/test/', () => {
  it('sends the template with the contact’s values to the typed number, through the sandbox, not as a broadcast', async () => {
    const before = await broadcastCount();
    const messagesBefore = (await t.db.pool.query('select count(*)::int as n from broadcast_messages'))
      .rows[0].n;
    const answer = await post('/broadcast/test/', {
      template_id: templateId,
      phone_number_id: owner.business.phone_number_id,
      to: '+44 7911 123999',
      contact_id: contactIds[2],
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({
      accepted: true,
      to: '+447911123999',
      contact: { id: contactIds[2], name: 'Own 2' },
      error: null,
    });
    expect(body.wamid).toMatch(/^wamid\./);

    const log = (await sandbox(
      `/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=100`,
    )) as {
      data: Array<{ wamid: string; to: string; template: { name: string }; parameters: unknown }>;
    };
    const sent = log.data.find((m) => m.wamid === body.wamid)!;
    expect(sent.to.replace(/^\+/, '')).toBe('447911123999');
    expect(sent.template.name).toBe('order_ready');
    expect(JSON.stringify(sent.parameters)).toContain('Own 2');
    // Not a broadcast: no broadcast and no message row; but it took its place in the 24-hour limit.
    expect(await broadcastCount()).toBe(before);
    expect((await t.db.pool.query('select count(*)::int as n from broadcast_messages')).rows[0].n).toBe(
      messagesBefore,
    );
    expect(await reached('+447911123999')).toBe(1);
  });

  it('uses the account’s first contact when none is named', async () => {
    const answer = await post('/broadcast/test/', { template_id: templateId, to: '+447911123998' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().contact.id).toBe(contactIds[0]);
  });

  it('shows Meta’s refusal in plain words', async () => {
    await sandbox('/__sandbox/faults', { error_rate_5xx: 1 });
    try {
      const answer = await post('/broadcast/test/', { template_id: templateId, to: '+447911123997' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ accepted: false, wamid: null, error: { code: 131000 } });
      expect(answer.json().error.explanation).toBeTruthy();
    } finally {
      await sandbox('/__sandbox/faults', { error_rate_5xx: 0 });
    }
  });

  it('is refused when the messaging limit has no room for the number', async () => {
    const used = (await t.db.pool.query('select count(*)::int as n from portfolio_reach')).rows[0]
      .n as number;
    await setPortfolioTier(t.db.pool, wabaAccountId, used);
    const answer = await post('/broadcast/test/', { template_id: templateId, to: '+447911123996' });
    expect(answer.statusCode).toBe(429);
    expect(answer.json().errors).toEqual([{ field: 'to', message: TEST_SEND.overLimit }]);
    expect(await reached('+447911123996')).toBe(0);
    // A number already reached in the window takes nothing more.
    const again = await post('/broadcast/test/', { template_id: templateId, to: '+447911123999' });
    expect(again.json().accepted).toBe(true);
    await setPortfolioTier(t.db.pool, wabaAccountId, 'TIER_2K');
  });

  it.each([
    ['a number that is not one', { to: 'call me' }, 400, 'to'],
    ['no number', { to: '' }, 400, 'to'],
    ['no template', { template_id: undefined }, 400, 'template_id'],
    ['another account’s contact', { contact_id: -1 }, 400, 'contact_id'],
    ['a contact that does not exist', { contact_id: 2_000_000_000 }, 404, 'contact_id'],
  ])('answers %s with its status naming the field', async (_what, patch, status, field) => {
    const answer = await post('/broadcast/test/', { template_id: templateId, to: '+447911123995', ...patch });
    expect(answer.statusCode).toBe(status);
    expect(answer.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('refuses another account’s template and contact as if they did not exist', async () => {
    const template = await post(
      '/broadcast/test/',
      { template_id: templateId, to: '+447911123995' },
      otherHeaders,
    );
    expect(template.statusCode).toBe(400);
    expect(template.json().errors[0].field).toBe('template_id');
    const contact = await post(
      '/broadcast/test/',
      { template_id: otherTemplateId, to: '+447911123995', contact_id: contactIds[0] },
      otherHeaders,
    );
    expect(contact.statusCode).toBe(404);
    expect(contact.json().errors[0]).toEqual({ field: 'contact_id', message: 'Contact not found' });
  });

  it('allows ten a minute per account, then answers 429 with when to try again', async () => {
    // The other account has sent none yet (its refusals above came before the count).
    for (let i = 0; i < TEST_SEND.perMinute; i += 1) {
      const answer = await post(
        '/broadcast/test/',
        { template_id: otherTemplateId, to: `+4479111232${10 + i}` },
        otherHeaders,
      );
      expect(answer.statusCode).toBe(200);
    }
    const refused = await post(
      '/broadcast/test/',
      { template_id: otherTemplateId, to: '+447911123230' },
      otherHeaders,
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0].field).toBe('to');
    expect(refused.json().errors[0].message).toMatch(
      /^Too many test messages: at most 10 a minute\. Try again in \d+ seconds?\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not held back by it.
    const mine = await post('/broadcast/test/', { template_id: templateId, to: '+447911123999' });
    expect(mine.statusCode).toBe(200);
  });
});
