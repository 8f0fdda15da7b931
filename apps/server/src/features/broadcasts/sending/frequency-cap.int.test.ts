import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, makeBusiness, type Business } from '../../../../../../test-support/business';
import { startSendingScene, type SendingScene } from '../../../../../../test-support/sending-scene';
import { BroadcastEngine } from './broadcast-engine';

// The frequency cap against the sandbox over HTTP, with two engines sending at once like two workers: the
// sandbox's call log is the ground truth of how many marketing messages each person got.

let scene: SendingScene;
let shop: Business;
let marketingId: number;
let utilityId: number;
let secondNumber: string;
let second: BroadcastEngine;

const PEOPLE = 30;
const contacts = Array.from({ length: PEOPLE }, (_, i) => ({
  name: `Person ${i + 1}`,
  number: `+4479111${String(i).padStart(5, '0')}`,
}));

const api = (method: string, path: string, json?: object) =>
  callApi(scene.t, method, path, { headers: shop.headers, json });

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  scene.t.db.pool.query(sql, params).then((r) => r.rows as T[]);

async function send(broadcasts: Array<{ template: number; from?: string }>) {
  const ids: number[] = [];
  for (const { template, from } of broadcasts) {
    const created = await api('POST', '/broadcast/create/', {
      name: `News ${Math.random().toString(16).slice(2, 6)}`,
      template_id: template,
      recipients: { type: 'all', percentage: 100 },
      ...(from && { phone_number_id: from }),
    });
    expect(created.status).toBe(201);
    ids.push(created.json().id as number);
  }
  // Both engines tick together, as two workers would: each takes a number's lease.
  const done = async () =>
    (
      await q<{ n: number }>(
        "select count(*)::int as n from broadcasts where id = any($1) and status <> 'completed'",
        [ids],
      )
    )[0]!.n === 0;
  await scene.until(async () => {
    await second.tick();
    await second.idle();
    return done();
  }, 'the broadcasts to complete');
  return ids;
}

/** Marketing messages the sandbox accepted per recipient, over both numbers. */
async function receivedPerPerson(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const phone of [shop.business.phone_number_id, secondNumber]) {
    const log = (await scene.sandbox(`/__sandbox/messages?phone_number_id=${phone}`)) as {
      data: Array<{ to: string; template: { name: string } }>;
    };
    for (const m of log.data.filter((m) => m.template.name === 'weekly_offer'))
      counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
  }
  return counts;
}

beforeAll(async () => {
  scene = await startSendingScene();
  shop = await makeBusiness(scene.t, {
    email: 'cap@freq.test',
    contacts,
    templates: [
      {
        name: 'weekly_offer',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: 'Offer for {{1}}.' }],
      },
      { name: 'order_note', category: 'UTILITY' },
    ],
  });
  [marketingId, utilityId] = shop.templateIds as [number, number];
  const added = (await scene.sandbox(`/__sandbox/wabas/${shop.business.waba_id}/phone-numbers`, {})) as {
    id: string;
  };
  secondNumber = added.id;
  // Refreshing the number list stores the second number for sending.
  expect((await api('GET', '/meta/phone/whatsapp/')).status).toBe(200);
  second = new BroadcastEngine({ pool: scene.t.db.pool, sender: scene.sender, secrets: scene.secrets });
}, 60_000);

afterAll(async () => {
  await second?.stop();
  await scene?.close();
});

describe('the frequency cap', () => {
  it('is two marketing messages per person per 7 days unless the account sets another', async () => {
    const settings = await api('GET', '/settings/');
    expect(settings.json().settings).toMatchObject({ frequency_cap_messages: 2, frequency_cap_days: 7 });
  });

  it('refuses a cap out of range, naming the field, and keeps the stored one', async () => {
    const zero = await api('PUT', '/settings/', { frequency_cap_messages: 0 });
    expect(zero.status).toBe(400);
    expect(zero.json().errors).toEqual([
      {
        field: 'frequency_cap_messages',
        message: 'Marketing messages per person must be a whole number from 1 to 30',
      },
    ]);
    const days = await api('PUT', '/settings/', { frequency_cap_days: 31 });
    expect(days.status).toBe(400);
    expect(days.json().errors[0].field).toBe('frequency_cap_days');
    expect((await api('GET', '/settings/')).json().settings.frequency_cap_messages).toBe(2);
  });

  it('holds across two workers sending two broadcasts from two numbers to the same people', async () => {
    // Stated here, so the test does not hang on the default.
    expect(
      (await api('PUT', '/settings/', { frequency_cap_messages: 2, frequency_cap_days: 7 })).status,
    ).toBe(200);
    const [first] = await send([{ template: marketingId }]);
    expect((await receivedPerPerson()).size).toBe(PEOPLE);

    // New broadcast says beforehand: nobody is at the cap yet (each had one).
    const before = await api('POST', '/broadcast/estimate/', {
      template_id: marketingId,
      recipients: { type: 'all', percentage: 100 },
    });
    expect(before.json().frequency_cap).toEqual({ messages: 2, days: 7, skipped: 0 });

    const [fromFirst, fromSecond] = await send([
      { template: marketingId },
      { template: marketingId, from: secondNumber },
    ]);
    const received = await receivedPerPerson();
    expect([...received.values()].every((n) => n === 2)).toBe(true);
    expect(received.size).toBe(PEOPLE);

    // Each person got one of the two; the other skipped them, recorded as skipped, not failed.
    const outcomes = await q<{ id: number; state: string; n: number }>(
      `select broadcast_id::int as id, state, count(*)::int as n from broadcast_messages
        where broadcast_id = any($1) group by 1, 2 order by 1, 2`,
      [[first, fromFirst, fromSecond]],
    );
    const of = (id: number, state: string) => outcomes.find((o) => o.id === id && o.state === state)?.n ?? 0;
    expect(of(first!, 'skipped')).toBe(0);
    expect(of(fromFirst!, 'skipped') + of(fromSecond!, 'skipped')).toBe(PEOPLE);
    expect(of(fromFirst!, 'failed') + of(fromSecond!, 'failed')).toBe(0);

    const report = await api('GET', `/broadcast/${fromSecond}/recipients/`);
    expect(report.status).toBe(200);
    expect(report.json().outcomes.skipped).toBe(of(fromSecond!, 'skipped'));
    expect(report.json().outcomes.failed).toBe(0);
    const history = await api('GET', '/broadcast/create/');
    const rows = history.json().results as Array<{
      id: number;
      skipped_percentage: number;
      failed_percentage: number;
    }>;
    const row = rows.find((r) => r.id === fromFirst)!;
    expect(row.skipped_percentage).toBe(Math.round((of(fromFirst!, 'skipped') / PEOPLE) * 1000) / 10);
    expect(row.failed_percentage).toBe(0);
    expect(history.json().totals.skipped).toBe(PEOPLE);

    // Everyone is now at the cap: the estimate says all would be skipped.
    const after = await api('POST', '/broadcast/estimate/', {
      template_id: marketingId,
      recipients: { type: 'all', percentage: 100 },
    });
    expect(after.json().frequency_cap).toEqual({ messages: 2, days: 7, skipped: PEOPLE });
  }, 90_000);

  it('leaves utility messages alone, and lets a person through again once the window has passed', async () => {
    const utilityBefore = (await scene.sandbox(
      `/__sandbox/messages?phone_number_id=${shop.business.phone_number_id}&limit=0`,
    )) as { total: number };
    const [utility] = await send([{ template: utilityId }]);
    const utilityAfter = (await scene.sandbox(
      `/__sandbox/messages?phone_number_id=${shop.business.phone_number_id}&limit=0`,
    )) as { total: number };
    expect(utilityAfter.total - utilityBefore.total).toBe(PEOPLE);
    expect(
      (
        await q('select 1 from broadcast_messages where broadcast_id = $1 and state = $2', [
          utility,
          'skipped',
        ])
      ).length,
    ).toBe(0);
    const estimate = await api('POST', '/broadcast/estimate/', {
      template_id: utilityId,
      recipients: { type: 'all', percentage: 100 },
    });
    expect(estimate.json().frequency_cap).toBeNull();

    // Eight days later every touch is out of the 7-day window.
    await q(`update marketing_touches set touched_at = touched_at - interval '8 days'`);
    await send([{ template: marketingId }]);
    expect([...(await receivedPerPerson()).values()].every((n) => n === 3)).toBe(true);
  }, 60_000);

  it('sends to everyone with no cap', async () => {
    expect((await api('PUT', '/settings/', { frequency_cap_messages: null })).json().settings).toMatchObject({
      frequency_cap_messages: null,
      frequency_cap_days: 7,
    });
    const [id] = await send([{ template: marketingId }]);
    expect(
      (await q('select 1 from broadcast_messages where broadcast_id = $1 and state = $2', [id, 'skipped']))
        .length,
    ).toBe(0);
    expect([...(await receivedPerPerson()).values()].every((n) => n === 4)).toBe(true);
  }, 60_000);

  it('counts a message tried again once: its own touch lets it through', async () => {
    await api('PUT', '/settings/', { frequency_cap_messages: 1, frequency_cap_days: 7 });
    const account = (
      await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [shop.business.waba_id])
    )[0]!.id;
    const [broadcast] = await q<{ id: number }>(
      'select id::int from broadcasts where waba_account_id = $1 and template_id = $2 limit 1',
      [account, marketingId],
    );
    const reserve = (ids: number[], numbers: string[]) =>
      q<{ skipped: string[] }>(
        'select reserve_frequency($1, $2::bigint[], $3::bigint[], $4::text[]) as skipped',
        [account, ids, ids.map(() => broadcast!.id), numbers],
      ).then((rows) => rows[0]!.skipped.map(Number));
    await q('delete from marketing_touches where waba_account_id = $1', [account]);
    // Two messages to one person in one batch: the first goes, the second is over a cap of 1.
    expect(await reserve([9_000_001, 9_000_002], ['+440001', '+440001'])).toEqual([9_000_002]);
    // The first tried again: still let through, and still one touch.
    expect(await reserve([9_000_001], ['+440001'])).toEqual([]);
    expect((await q('select 1 from marketing_touches where waba_account_id = $1', [account])).length).toBe(1);

    // An account that never saved its settings: the default cap, two.
    await q('delete from account_settings where waba_account_id = $1', [account]);
    expect(await reserve([9_000_003, 9_000_004, 9_000_005], ['+440002', '+440002', '+440002'])).toEqual([
      9_000_005,
    ]);
  });
});
