import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, makeBusiness, type Business } from '../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';

// Follow-ups against the sandbox over HTTP: the sandbox reads about half the messages, and its call log is the
// ground truth of whom the follow-up reached.

let scene: SendingScene;
let shop: Business;
let firstId: number;
let reminderId: number;

const PEOPLE = 8;
const contacts = Array.from({ length: PEOPLE }, (_, i) => ({
  name: `Reader ${i + 1}`,
  number: `+4479112${String(i).padStart(5, '0')}`,
}));

const api = (method: string, path: string, json?: object) =>
  callApi(scene.t, method, path, { headers: shop.headers, json });

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  scene.t.db.pool.query(sql, params).then((r) => r.rows as T[]);

const statusOf = async (id: number) =>
  (await q<{ status: string }>('select status from broadcasts where id = $1', [id]))[0]!.status;

const followUpOf = async (parent: number) =>
  (
    await q<{ id: number; status: string; scheduled_at: Date }>(
      'select id::int, status, scheduled_at from broadcasts where follow_up_of = $1',
      [parent],
    )
  )[0];

const createWithFollowUp = (body: Record<string, unknown>) =>
  api('POST', '/broadcast/create/', {
    name: 'Launch',
    template_id: firstId,
    recipients: { type: 'all', percentage: 100 },
    follow_up: { template_id: reminderId, after_hours: 24, unless: 'read' },
    ...body,
  });

beforeAll(async () => {
  scene = await startSendingScene();
  await scene.sandbox('/__sandbox/config', { read_rate: 0.5 });
  shop = await makeBusiness(scene.t, {
    email: 'follow@ups.test',
    contacts,
    templates: [{ name: 'launch_news' }, { name: 'launch_reminder' }],
  });
  [firstId, reminderId] = shop.templateIds as [number, number];
}, 60_000);

afterAll(() => scene?.close());

describe('a follow-up', () => {
  it('refuses what cannot be sent, naming the field', async () => {
    const unknown = await createWithFollowUp({
      follow_up: { template_id: 999_999, after_hours: 24, unless: 'read' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json().errors[0].field).toBe('follow_up.template_id');
    const clicks = await createWithFollowUp({
      follow_up: { template_id: reminderId, after_hours: 24, unless: 'clicked' },
    });
    expect(clicks.status).toBe(400);
    expect(clicks.json().errors).toEqual([
      {
        field: 'follow_up.unless',
        message: 'Only a broadcast with a tracked link knows who clicked: choose read or replied',
      },
    ]);
    const hours = await createWithFollowUp({
      follow_up: { template_id: reminderId, after_hours: 0, unless: 'read' },
    });
    expect(hours.status).toBe(400);
    expect(hours.json().errors[0].field).toBe('follow_up.after_hours');
    // Nothing half-written: neither broadcast exists.
    expect(
      await q(
        'select 1 from broadcasts where waba_account_id = (select id from waba_accounts where waba_id = $1)',
        [shop.business.waba_id],
      ),
    ).toEqual([]);
  });

  it('waits for its parent, then reaches exactly the recipients who did not read it', async () => {
    const created = await createWithFollowUp({});
    expect(created.status).toBe(201);
    const parent = created.json().id as number;
    const followUp = (await followUpOf(parent))!;
    expect(followUp.status).toBe('scheduled');
    const start = (
      await q<{ scheduled_at: Date }>('select scheduled_at from broadcasts where id = $1', [parent])
    )[0]!;
    expect(followUp.scheduled_at.getTime() - start.scheduled_at.getTime()).toBe(24 * 3_600_000);

    // The history shows it beside its parent.
    const history = (await api('GET', '/broadcast/create/')).json().results as Array<{
      id: number;
      follow_up_of: unknown;
    }>;
    expect(history.find((r) => r.id === followUp.id)!.follow_up_of).toEqual({
      id: parent,
      name: 'Launch',
      unless: 'read',
      after_hours: 24,
    });
    expect(history.find((r) => r.id === parent)!.follow_up_of).toBeNull();

    // Due at once, but not before its parent has completed.
    await q("update broadcasts set scheduled_at = now() - interval '1 second' where id = $1", [followUp.id]);
    await scene.until(async () => (await statusOf(parent)) === 'completed', 'the parent to complete');
    // Every parent message delivered (or refused: the sandbox treats some numbers as not on WhatsApp), and the
    // sandbox's reads (30 ms after delivery) in.
    await scene.until(
      async () =>
        (
          await q<{ n: number }>(
            "select count(*)::int as n from broadcast_messages where broadcast_id = $1 and state in ('delivered', 'read', 'not_on_whatsapp', 'failed')",
            [parent],
          )
        )[0]!.n === PEOPLE,
      'the parent’s messages to be delivered',
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await scene.t.app.webhooks.idle();
    const unread = (
      await q<{ whatsapp_number: string }>(
        "select whatsapp_number from broadcast_messages where broadcast_id = $1 and state = 'delivered' order by 1",
        [parent],
      )
    ).map((r) => r.whatsapp_number.replace(/^\+/, ''));
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.length).toBeLessThan(PEOPLE);

    await scene.until(async () => (await statusOf(followUp.id)) === 'completed', 'the follow-up to complete');
    const log = (await scene.sandbox(
      `/__sandbox/messages?phone_number_id=${shop.business.phone_number_id}`,
    )) as {
      data: Array<{ to: string; template: { name: string } }>;
    };
    const reminded = log.data
      .filter((m) => m.template.name === 'launch_reminder')
      .map((m) => m.to)
      .sort();
    expect(reminded).toEqual(unread);
    const report = (await api('GET', `/broadcast/${followUp.id}/recipients/`)).json();
    expect(report.broadcast.audience).toMatchObject({
      type: 'list',
      from_broadcast_id: parent,
      recipients: unread.length,
    });
  }, 60_000);

  it('does not start before its parent has completed, and is cancelled with it', async () => {
    const created = await createWithFollowUp({ scheduled_time: Math.floor(Date.now() / 1000) + 3_600 });
    expect(created.status).toBe(201);
    const parent = created.json().id as number;
    // Due now, its parent still scheduled: the engine leaves it.
    await q("update broadcasts set scheduled_at = now() - interval '1 second' where follow_up_of = $1", [
      parent,
    ]);
    await scene.engine.tick();
    await scene.engine.idle();
    expect((await followUpOf(parent))!.status).toBe('scheduled');
    const cancel = await api('POST', `/broadcast/${parent}/cancel/`, {});
    expect(cancel.status).toBe(200);
    expect((await followUpOf(parent))!.status).toBe('cancelled');
  });
});
