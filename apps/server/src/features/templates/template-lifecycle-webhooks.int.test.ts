import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { postSignedWebhook } from '../webhooks/webhook-test-helpers';

// Meta's template lifecycle webhooks, posted signed in Meta's shapes, and what each leaves on the template.
let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let accountId: number;
let nextMetaId = 7_400_000_000;

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'lifecycle@acme.test');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  accountId = (await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [wabaId]))[0]!
    .id;
});
afterAll(() => t?.close());

/** A template Meta knows, as its review left it. */
async function template(name: string, status = 'APPROVED', category = 'MARKETING') {
  const metaId = String(nextMetaId++);
  const id = (
    await q<{ id: number }>(
      `insert into templates (waba_account_id, meta_template_id, name, language, category, status, components)
       values ($1, $2, $3, 'en_US', $4, $5, '[{"type":"BODY","text":"Hello"}]') returning id::int`,
      [accountId, metaId, name, category, status],
    )
  )[0]!.id;
  return { id, metaId, name };
}

async function deliver(field: string, value: Record<string, unknown>) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: 1_767_225_600, changes: [{ field, value }] }],
  });
  const response = await postSignedWebhook(t, body);
  expect(response.statusCode).toBe(200);
  await t.app.webhooks.idle();
}

/** `message_template_status_update` for one template, as Meta shapes it. */
function statusUpdate(target: { metaId: string; name: string }, event: string, extra: object = {}) {
  return deliver('message_template_status_update', {
    event,
    message_template_id: Number(target.metaId),
    message_template_name: target.name,
    message_template_language: 'en_US',
    reason: null,
    ...extra,
  });
}

async function detail(id: number) {
  const response = await t.app.inject({ method: 'GET', url: `/meta/templates/${id}/`, headers });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function listed(id: number) {
  const list = (await t.app.inject({ method: 'GET', url: '/meta/templates/?page_size=100', headers })).json();
  return { list, item: list.results.find((r: { id: number }) => r.id === id) };
}

describe('message_template_status_update', () => {
  it('REJECTED keeps the reason and rejection_info, and both lists and edit show them', async () => {
    const target = await template('lc_rejected', 'PENDING');
    await statusUpdate(target, 'REJECTED', {
      reason: 'INVALID_FORMAT',
      rejection_info: {
        reason: 'The body has a variable at its end.',
        recommendation: 'Add words after the last variable.',
      },
    });
    const expected = {
      status: 'REJECTED',
      rejected_reason: 'INVALID_FORMAT',
      rejection_info: {
        reason: 'The body has a variable at its end.',
        recommendation: 'Add words after the last variable.',
      },
    };
    expect(await detail(target.id)).toMatchObject(expected);
    expect((await listed(target.id)).item).toMatchObject(expected);

    // Approved on appeal: the rejection and its explanation go.
    await statusUpdate(target, 'APPROVED', { reason: 'NONE' });
    expect(await detail(target.id)).toMatchObject({
      status: 'APPROVED',
      rejected_reason: null,
      rejection_info: null,
    });
  });

  it('APPROVED, PAUSED, DISABLED and REINSTATED set the status as before', async () => {
    const target = await template('lc_verdicts', 'PENDING');
    for (const [event, status] of [
      ['APPROVED', 'APPROVED'],
      ['PAUSED', 'PAUSED'],
      ['REINSTATED', 'APPROVED'],
      ['DISABLED', 'DISABLED'],
    ]) {
      await statusUpdate(target, event!);
      expect((await detail(target.id)).status).toBe(status);
    }
  });

  it('ARCHIVED hides the template from sending; UNARCHIVED restores its earlier status, never the word', async () => {
    const paused = await template('lc_archived_paused', 'PAUSED');
    const approved = await template('lc_archived_approved');
    await statusUpdate(paused, 'ARCHIVED');
    await statusUpdate(approved, 'ARCHIVED');
    await statusUpdate(approved, 'ARCHIVED');
    expect((await detail(approved.id)).status).toBe('ARCHIVED');
    // Kept, and not sendable: New broadcast offers APPROVED templates only, and create refuses others.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/broadcast/create/',
      headers,
      payload: { name: 'Archived', template_id: approved.id, recipients: { type: 'all', percentage: 100 } },
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(refused.json())).toContain('ARCHIVED');

    await statusUpdate(paused, 'UNARCHIVED');
    await statusUpdate(approved, 'UNARCHIVED');
    await statusUpdate(approved, 'UNARCHIVED');
    expect((await detail(paused.id)).status).toBe('PAUSED');
    expect((await detail(approved.id)).status).toBe('APPROVED');
    const stored = await q<{ status: string }>(
      "select status from templates where waba_account_id = $1 and status = 'UNARCHIVED'",
      [accountId],
    );
    expect(stored).toEqual([]);
  });

  it('PENDING_DELETION takes the template out of sending', async () => {
    const target = await template('lc_pending_deletion');
    await statusUpdate(target, 'PENDING_DELETION');
    expect((await detail(target.id)).status).toBe('PENDING_DELETION');
  });

  it('LOCKED keeps an approved template sendable but refuses edits', async () => {
    const target = await template('lc_locked');
    await statusUpdate(target, 'LOCKED', {
      other_info: { title: 'LOCKED', description: 'This template is locked and cannot be edited.' },
    });
    expect(await detail(target.id)).toMatchObject({ status: 'APPROVED', locked: true });
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/meta/templates/${target.id}/`,
      headers,
      payload: {
        name: 'lc_locked',
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Hello again' }],
      },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().errors[0].field).toBe('status');
  });

  it('FLAGGED keeps the status and records the warning; REINSTATED clears it', async () => {
    const target = await template('lc_flagged', 'PAUSED');
    await statusUpdate(target, 'FLAGGED');
    const flagged = await detail(target.id);
    expect(flagged.status).toBe('PAUSED');
    expect(typeof flagged.flagged_at).toBe('string');
    await statusUpdate(target, 'REINSTATED');
    expect(await detail(target.id)).toMatchObject({ status: 'APPROVED', flagged_at: null });
  });

  it('LIMIT_EXCEEDED is said of the account until a template is deleted at Meta; the one it names keeps its status', async () => {
    const target = await template('lc_limit');
    const spare = await template('lc_limit_spare');
    await statusUpdate(target, 'LIMIT_EXCEEDED');
    expect((await detail(target.id)).status).toBe('APPROVED');
    const { list } = await listed(target.id);
    expect(typeof list.template_limit_exceeded_at).toBe('string');

    // Deleting one makes room: the account is no longer known to be at its limit.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/meta/templates/',
      headers,
      payload: { template_id: spare.metaId, template_name: 'lc_limit_spare' },
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await listed(target.id)).list.template_limit_exceeded_at).toBeNull();
  });

  it('takes the category Meta names in a status notification (approved under another category)', async () => {
    const target = await template('lc_approved_as', 'PENDING', 'UTILITY');
    await statusUpdate(target, 'APPROVED', { reason: 'NONE', message_template_category: 'MARKETING' });
    expect(await detail(target.id)).toMatchObject({ status: 'APPROVED', category: 'MARKETING' });
  });

  it('an event Herald does not know is stored and changes nothing', async () => {
    const target = await template('lc_unknown');
    const before = await detail(target.id);
    await statusUpdate(target, 'SOMETHING_NEW');
    expect(await detail(target.id)).toEqual(before);
    const events = await q<{ processed: boolean }>(
      `select processed_at is not null as processed from webhook_events where payload::text like '%SOMETHING_NEW%'`,
    );
    expect(events).toEqual([{ processed: true }]);
  });
});

describe('template_category_update', () => {
  it('keeps the impending change with its date, then the change itself; the estimate prices the new category', async () => {
    const target = await template('lc_recategorised', 'APPROVED', 'UTILITY');
    await q(
      `insert into contacts (waba_account_id, name, whatsapp_number) values ($1, 'US', '+14155550123'), ($1, 'IN', '+919876500123')`,
      [accountId],
    );
    const effective = 1_767_312_000; // 2026-01-02T00:00:00Z
    await deliver('template_category_update', {
      message_template_id: Number(target.metaId),
      message_template_name: target.name,
      message_template_language: 'en_US',
      correct_category: 'MARKETING',
      new_category: 'UTILITY',
      category_update_timestamp: effective,
    });
    const announced = await detail(target.id);
    expect(announced.category).toBe('UTILITY');
    expect(announced.pending_category).toEqual({
      category: 'MARKETING',
      effective_at: new Date(effective * 1000).toISOString(),
    });
    expect((await listed(target.id)).item.pending_category.category).toBe('MARKETING');

    await deliver('template_category_update', {
      message_template_id: Number(target.metaId),
      message_template_name: target.name,
      message_template_language: 'en_US',
      previous_category: 'UTILITY',
      new_category: 'MARKETING',
    });
    expect(await detail(target.id)).toMatchObject({ category: 'MARKETING', pending_category: null });

    const request = { template_id: target.id, recipients: { type: 'all', percentage: 100 } };
    const estimate = (
      await t.app.inject({ method: 'POST', url: '/broadcast/estimate/', headers, payload: request })
    ).json();
    expect(estimate.template_category).toBe('MARKETING');
    // The US marketing rule follows: +1 numbers are counted for a marketing template only.
    expect(estimate.us_numbers).toBe(1);
    const cost = (
      await t.app.inject({ method: 'POST', url: '/pricing/estimate/', headers, payload: request })
    ).json();
    expect(cost.category).toBe('marketing');
  });

  it('a notice for the category the template already has changes nothing', async () => {
    const target = await template('lc_same_category', 'APPROVED', 'MARKETING');
    await deliver('template_category_update', {
      message_template_id: Number(target.metaId),
      correct_category: 'MARKETING',
      new_category: 'UTILITY',
      category_update_timestamp: 1_767_312_000,
    });
    expect(await detail(target.id)).toMatchObject({ category: 'MARKETING', pending_category: null });
  });
});
