import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovedTemplate, DEFAULT_TEMPLATE } from '../../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../../test-support/sending-scene';
import { signedInUser } from '../../auth/auth-test-helpers';

/**
 * Meta announces a template's category change a day ahead (the sandbox's template_category_update example, 24 h
 * on). A broadcast of it sending now that would not end before then is held (paused) with the reason and can be
 * resumed; one that ends well before, or of another template, goes on.
 */
let scene: SendingScene;
let headers: Record<string, string>;
let phoneNumberId: string;
let accountId: number;

beforeAll(async () => {
  scene = await startSendingScene();
  const owner = await signedInUser(scene.t, 'category-hold@herald.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  phoneNumberId = owner.business.phone_number_id;
  accountId = (
    await scene.t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [
      owner.business.waba_id,
    ])
  ).rows[0].id as number;
});

afterAll(() => scene?.close());

/** A broadcast of the template as the engine has it while sending: `left` recipients still to go. */
async function sending(templateId: number, name: string, left: number): Promise<number> {
  const { rows } = await scene.t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                             audience, scheduled_at, started_at, status, total_recipients)
     select $1, p.id, t.id, t.name, t.language, $3, '{"type":"all","percentage":100}', now(), now(), 'sending', $4
       from templates t, phone_numbers p
      where t.id = $2 and p.waba_account_id = $1
      limit 1
     returning id::int`,
    [accountId, templateId, name, left],
  );
  return rows[0]!.id;
}

/** A broadcast of the template waiting for its time, `hours` from now, with `recipients` as estimated. */
async function scheduled(
  templateId: number,
  name: string,
  recipients: number,
  hours: number,
): Promise<number> {
  const { rows } = await scene.t.db.pool.query<{ id: number }>(
    `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                             audience, scheduled_at, status, total_recipients)
     select $1, p.id, t.id, t.name, t.language, $3, '{"type":"all","percentage":100}',
            now() + make_interval(hours => $5), 'scheduled', $4
       from templates t, phone_numbers p
      where t.id = $2 and p.waba_account_id = $1
      limit 1
     returning id::int`,
    [accountId, templateId, name, recipients, hours],
  );
  return rows[0]!.id;
}

const broadcast = async (id: number) =>
  (
    await scene.t.db.pool.query<{ status: string; status_reason: string | null }>(
      'select status, status_reason from broadcasts where id = $1',
      [id],
    )
  ).rows[0]!;

describe('a category change Meta announces', () => {
  it('holds a broadcast that would still be sending then, with the reason; it resumes when the business chooses', async () => {
    const notice = await createApprovedTemplate(scene.t, headers, {
      ...DEFAULT_TEMPLATE,
      name: 'order_notice',
    });
    const other = await createApprovedTemplate(scene.t, headers, {
      ...DEFAULT_TEMPLATE,
      name: 'other_notice',
    });
    // 10,000,000 left at the number's 80 a second: about 35 hours, past the change a day ahead.
    const long = await sending(notice, 'Long run', 10_000_000);
    // 1,000 left: about 13 seconds, long before it.
    const short = await sending(notice, 'Short run', 1_000);
    const unrelated = await sending(other, 'Other template', 10_000_000);

    await scene.sandbox('/__sandbox/webhook-events', {
      event: 'template_category_update:impending',
      phone_number_id: phoneNumberId,
      template_name: 'order_notice',
    });
    // The engine is not run: these broadcasts have no rows, so it would end them. Only the webhook acts.
    const deadline = Date.now() + 15_000;
    while ((await broadcast(long)).status !== 'paused' && Date.now() < deadline) {
      await scene.t.app.webhooks.idle();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const held = await broadcast(long);
    expect(held.status_reason).toMatch(
      /^WhatsApp changes the category of the template order_notice to MARKETING on \w{3} \d{1,2}, \d{4}, \d\d:\d\d UTC, before this broadcast would end: messages sent from then are routed and charged as MARKETING\. Resume to send the rest anyway$/,
    );
    expect((await broadcast(short)).status).toBe('sending');
    expect((await broadcast(unrelated)).status).toBe('sending');
    // The notice itself is kept on the template, as before.
    const template = (
      await scene.t.app.inject({ method: 'GET', url: `/meta/templates/${notice}/`, headers })
    ).json();
    expect(template.pending_category).toMatchObject({ category: 'MARKETING' });

    const resumed = await scene.t.app.inject({
      method: 'POST',
      url: `/broadcast/${long}/resume/`,
      headers,
    });
    expect(resumed.statusCode).toBe(200);
    expect(await broadcast(long)).toEqual({ status: 'sending', status_reason: null });
  });

  it('holds a scheduled broadcast that would start before the change and end after it; resumed, it waits for its time', async () => {
    const template = await createApprovedTemplate(scene.t, headers, {
      ...DEFAULT_TEMPLATE,
      name: 'weekly_notice',
    });
    // Starts in 23 h with 10,000,000 at 80 a second (about 35 h): across the change a day ahead.
    const across = await scheduled(template, 'Across the change', 10_000_000, 23);
    // Starts in an hour with 1,000: ends long before the change.
    const before = await scheduled(template, 'Before the change', 1_000, 1);
    // Starts after the change: sent, and estimated, in the coming category.
    const after = await scheduled(template, 'After the change', 10_000_000, 25);

    await scene.sandbox('/__sandbox/webhook-events', {
      event: 'template_category_update:impending',
      phone_number_id: phoneNumberId,
      template_name: 'weekly_notice',
    });
    const deadline = Date.now() + 15_000;
    while ((await broadcast(across)).status !== 'paused' && Date.now() < deadline) {
      await scene.t.app.webhooks.idle();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await broadcast(across)).status_reason).toMatch(
      /^WhatsApp changes the category of the template weekly_notice to MARKETING on .+ UTC, before this broadcast would end: messages sent from then are routed and charged as MARKETING\. Resume to send it at its scheduled time anyway$/,
    );
    expect((await broadcast(before)).status).toBe('scheduled');
    expect((await broadcast(after)).status).toBe('scheduled');

    const resumed = await scene.t.app.inject({
      method: 'POST',
      url: `/broadcast/${across}/resume/`,
      headers,
    });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toEqual({ id: across, status: 'scheduled' });
    expect(await broadcast(across)).toEqual({ status: 'scheduled', status_reason: null });
  });
});
