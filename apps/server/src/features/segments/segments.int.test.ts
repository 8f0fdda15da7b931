import fc from 'fast-check';
import type { SegmentDefinition, SegmentRule } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, makeBusiness, setFrequencyCap, type Business } from '../../../../../test-support/business';
import {
  recountSegment,
  type RecountContact,
  type RecountMessage,
} from '../../../../../test-support/segment-recount';
import { startSendingScene, type SendingScene } from '../../../../../test-support/sending-scene';

// Segments against a plain recount (test-support/segment-recount.ts): random contacts, tags, columns and message
// histories, random rules in AND/OR groups; the count, the members and what a broadcast to the segment sends
// (per the sandbox's call log) must all be the recount's.

let scene: SendingScene;
let shop: Business;
let accountId: number;
let phoneId: number;

const api = (method: string, path: string, json?: object) =>
  callApi(scene.t, method, path, { headers: shop.headers, json });
const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  scene.t.db.pool.query(sql, params).then((r) => r.rows as T[]);

const DAY = 86_400_000;
const TAGS = ['vip', 'gold', 'lapsed', 'press'];
/** Numbers of several markets, +1 and +7 ones whose market depends on more than the calling code among them. */
const NUMBER_STEMS = [
  '+4479111',
  '+49151123',
  '+1415555',
  '+1242555',
  '+7701123',
  '+7495123',
  '+9198123',
  '+3584012',
];
const NAMES = ['Ada', ' ada ', 'Bob', 'Carla Gold', 'dora'];
const PLANS = ['gold', 'Gold ', 'silver', '', '  '];
const SCORES = ['10', '7.5', ' 3 ', 'x', '-2'];
const RENEWALS = ['2026-01-15', '2026-06-30', ' 2026-03-01 ', 'soon'];

const dayText = (offsetDays: number) => new Date(Date.now() - offsetDays * DAY).toISOString().slice(0, 10);

interface World {
  contacts: Array<
    Omit<RecountContact, 'id' | 'tag_ids' | 'messages'> & {
      tags: number[];
      messages: Array<Omit<RecountMessage, 'broadcast_id'> & { broadcast: number }>;
    }
  >;
}

/** An activity rule: an event, at least once or never, in the last N days and/or of one broadcast. */
const engagementArb = (broadcastIds: number[]): fc.Arbitrary<SegmentRule> =>
  fc.oneof(engagementRuleArb(fc.constantFrom(...broadcastIds)), engagementRuleArb(fc.constant(undefined)));

/** An activity rule whose broadcast_id comes from `broadcastId` (may be absent when undefined is drawn). */
const engagementRuleArb = (broadcastId: fc.Arbitrary<number | undefined>): fc.Arbitrary<SegmentRule> =>
  fc.record(
    {
      kind: fc.constant('engagement' as const),
      event: fc.constantFrom(
        'received' as const,
        'delivered' as const,
        'read' as const,
        'replied' as const,
        'clicked' as const,
        'engaged' as const,
      ),
      did: fc.boolean(),
      within_days: fc.constantFrom(1, 7, 30),
      broadcast_id: broadcastId,
    },
    { requiredKeys: ['kind', 'event', 'did'] },
  ) as fc.Arbitrary<SegmentRule>;

/** When an event happened: a whole number of days and a half ago, so never at a window's edge. */
const ago = fc.option(
  fc.integer({ min: 0, max: 60 }).map((days) => new Date(Date.now() - (days + 0.5) * DAY)),
  {
    nil: null,
  },
);

const messageArb = fc.record({
  broadcast: fc.integer({ min: 0, max: 1 }),
  accepted_at: ago,
  delivered_at: ago,
  read_at: ago,
  replied_at: ago,
  clicked_at: ago,
});

const worldArb: fc.Arbitrary<World> = fc.record({
  contacts: fc.array(
    fc.record({
      name: fc.constantFrom(...NAMES),
      whatsapp_number: fc.constantFrom(...NUMBER_STEMS),
      age: fc.option(fc.integer({ min: 15, max: 80 }), { nil: null }),
      email: fc.option(fc.constantFrom('a@x.test', 'B@GOLD.test', ' '), { nil: null }),
      attributes: fc.record(
        {
          plan: fc.constantFrom(...PLANS),
          score: fc.constantFrom(...SCORES),
          renewal: fc.constantFrom(...RENEWALS),
        },
        { requiredKeys: [] },
      ),
      // Noon UTC of a day up to 60 days back: an opt-in rule's edges are whole UTC days.
      created_at: fc.integer({ min: 0, max: 60 }).map((days) => new Date(`${dayText(days)}T12:00:00Z`)),
      // One in five opted out.
      opted_out: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      tags: fc.subarray([0, 1, 2, 3]),
      messages: fc.array(messageArb, { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 25 },
  ),
});

function ruleArb(tagIds: number[], broadcastIds: number[]): fc.Arbitrary<SegmentRule> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('tags' as const),
      match: fc.constantFrom('any' as const, 'all' as const, 'none' as const),
      tag_ids: fc.subarray(tagIds, { minLength: 1 }),
    }),
    fc.record({
      kind: fc.constant('text' as const),
      column: fc.constantFrom('name', 'email', 'plan'),
      op: fc.constantFrom('equals' as const, 'contains' as const, 'empty' as const, 'not_empty' as const),
      value: fc.constantFrom('ada', 'gold', 'Gold', 'o'),
    }),
    fc
      .record({
        kind: fc.constant('number' as const),
        column: fc.constantFrom('age', 'score'),
        min: fc.option(fc.integer({ min: -5, max: 40 }), { nil: undefined }),
        max: fc.option(fc.integer({ min: 5, max: 60 }), { nil: undefined }),
      })
      .filter(
        (r) => (r.min !== undefined || r.max !== undefined) && (r.min ?? -Infinity) <= (r.max ?? Infinity),
      ),
    fc.record({
      kind: fc.constant('date' as const),
      column: fc.constant('renewal'),
      from: fc.constantFrom('2026-01-01', '2026-03-01'),
      to: fc.constantFrom('2026-03-01', '2026-12-31'),
    }),
    fc.record({
      kind: fc.constant('market' as const),
      markets: fc.subarray(['United Kingdom', 'Germany', 'North America', 'Russia', 'India', 'Other'], {
        minLength: 1,
      }),
    }),
    fc
      .record({ from: fc.integer({ min: 0, max: 70 }), to: fc.integer({ min: 0, max: 70 }) })
      .map(({ from, to }) => ({
        kind: 'opted_in' as const,
        from: dayText(Math.max(from, to)),
        to: dayText(Math.min(from, to)),
      })),
    engagementArb(broadcastIds),
  ) as fc.Arbitrary<SegmentRule>;
}

/** Random rules in groups; `broad`: ORs only, so most segments hold someone (a send then has recipients). */
const definitionArb = (
  tagIds: number[],
  broadcastIds: number[],
  broad = false,
): fc.Arbitrary<SegmentDefinition> =>
  fc.record({
    match: broad ? fc.constant('any' as const) : fc.constantFrom('all' as const, 'any' as const),
    groups: fc.array(
      fc.record({
        match: broad ? fc.constant('any' as const) : fc.constantFrom('all' as const, 'any' as const),
        rules: fc.array(ruleArb(tagIds, broadcastIds), { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });

let tagIds: number[] = [];
let broadcastIds: number[] = [];

/** Replaces the account's contacts and message history with the world's; answers them as the recount reads them. */
async function writeWorld(world: World): Promise<RecountContact[]> {
  await q('delete from broadcast_messages where waba_account_id = $1', [accountId]);
  await q('delete from contacts where waba_account_id = $1', [accountId]);
  const written: RecountContact[] = [];
  for (const [i, contact] of world.contacts.entries()) {
    const number = `${contact.whatsapp_number}${String(i).padStart(12 - contact.whatsapp_number.length + 1, '0')}`;
    const [row] = await q<{ id: number }>(
      `insert into contacts (waba_account_id, name, whatsapp_number, age, email, attributes, created_at, opted_out_at)
       values ($1, $2, $3, $4, $5, $6, $7, case when $8 then now() end) returning id::int`,
      [
        accountId,
        contact.name,
        number,
        contact.age,
        contact.email,
        contact.attributes,
        contact.created_at,
        contact.opted_out,
      ],
    );
    const tags = contact.tags.map((index) => tagIds[index]!);
    if (tags.length)
      await q(
        'insert into contact_tags (waba_account_id, contact_id, tag_id) select $1, $2, unnest($3::bigint[])',
        [accountId, row!.id, tags],
      );
    const messages: RecountMessage[] = [];
    for (const [m, message] of contact.messages.entries()) {
      const broadcastId = broadcastIds[message.broadcast]!;
      // One row per broadcast and number: a second message of the same broadcast is left out.
      if (contact.messages.slice(0, m).some((earlier) => earlier.broadcast === message.broadcast)) continue;
      const times = [
        message.accepted_at,
        message.delivered_at,
        message.read_at,
        message.replied_at,
        message.clicked_at,
      ];
      // Every other message is written queued and then given its times, as the sender and the status webhooks
      // do: the contacts' kept activity (migration 051) follows both writes.
      const later = m % 2 === 1;
      const [inserted] = await q<{ id: number }>(
        `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number, state,
                                         accepted_at, delivered_at, read_at, replied_at, clicked_at)
         values ($1, $2, $3, $4, 'sent', $5, $6, $7, $8, $9) returning id::int`,
        [accountId, broadcastId, row!.id, number, ...(later ? times.map(() => null) : times)],
      );
      if (later)
        await q(
          `update broadcast_messages set accepted_at = $3, delivered_at = $4, read_at = $5, replied_at = $6,
                  clicked_at = $7 where waba_account_id = $1 and id = $2`,
          [accountId, inserted!.id, ...times],
        );
      messages.push({ ...message, broadcast_id: broadcastId });
    }
    written.push({ ...contact, id: row!.id, whatsapp_number: number, tag_ids: tags, messages });
  }
  return written;
}

beforeAll(async () => {
  scene = await startSendingScene();
  shop = await makeBusiness(scene.t, { email: 'segments@shop.test', templates: [{ name: 'segment_offer' }] });
  await setFrequencyCap(scene.t, shop.headers, null, 7);
  [{ id: accountId, phone: phoneId }] = (await q<{ id: number; phone: number }>(
    `select w.id::int, p.id::int as phone from waba_accounts w join phone_numbers p on p.waba_account_id = w.id
      where w.waba_id = $1 order by p.id limit 1`,
    [shop.business.waba_id],
  )) as [{ id: number; phone: number }];
  tagIds = [];
  for (const name of TAGS)
    tagIds.push(
      (
        await q<{ id: number }>(
          'insert into tags (waba_account_id, name) values ($1, $2) returning id::int',
          [accountId, name],
        )
      )[0]!.id,
    );
  await q('insert into contact_columns (waba_account_id, name) values ($1, $2), ($1, $3), ($1, $4)', [
    accountId,
    'plan',
    'score',
    'renewal',
  ]);
  broadcastIds = [];
  for (const name of ['Spring sale', 'Summer sale'])
    broadcastIds.push(
      (
        await q<{ id: number }>(
          `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                                   scheduled_at, status)
           values ($1, $2, 'segment_offer', 'en_US', $3, '{"type":"all","percentage":100}', now(), 'completed')
           returning id::int`,
          [accountId, phoneId, name],
        )
      )[0]!.id,
    );
}, 60_000);

afterAll(() => scene?.close());

describe('a segment', () => {
  it('counts and lists exactly the contacts a plain recount finds', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, definitionArb(tagIds, broadcastIds), async (world, definition) => {
        const contacts = await writeWorld(world);
        const expected = recountSegment(contacts, definition, new Date());
        const count = await api('POST', '/segments/count/', { definition });
        expect(count.status).toBe(200);
        expect(count.json()).toEqual({
          matching: expected.length,
          reachable: expected.filter((c) => !c.opted_out).length,
        });
        const saved = await api('POST', '/segments/', { name: 'Property', definition });
        expect(saved.status).toBe(201);
        const id = saved.json().id as number;
        const members = await api('GET', `/recipient/create/?segment_id=${id}&page_size=100`);
        expect(members.status).toBe(200);
        expect(
          (members.json().results as Array<{ id: number }>).map((c) => c.id).sort((a, b) => a - b),
        ).toEqual(expected.map((c) => c.id).sort((a, b) => a - b));
        expect((await api('DELETE', `/segments/${id}/`)).status).toBe(204);
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('counts groups of activity rules alone exactly, each group reading the kept activity once', async () => {
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        // One group, so its own match decides: every mix of "did" and "did not" under all and any.
        fc.record({
          match: fc.constant('all' as const),
          groups: fc.tuple(
            fc.record({
              match: fc.constantFrom('all' as const, 'any' as const),
              // Mostly rules on the kept activity, some of one broadcast beside them.
              rules: fc.array(
                fc.oneof(
                  { weight: 3, arbitrary: engagementRuleArb(fc.constant(undefined)) },
                  { weight: 1, arbitrary: engagementArb(broadcastIds) },
                ),
                { minLength: 2, maxLength: 4 },
              ),
            }),
          ),
        }),
        async (world, definition) => {
          const contacts = await writeWorld(world);
          const expected = recountSegment(contacts, definition, new Date());
          const count = await api('POST', '/segments/count/', { definition });
          expect(count.json()).toEqual({
            matching: expected.length,
            reachable: expected.filter((c) => !c.opted_out).length,
          });
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('a broadcast to a segment', () => {
  it('is estimated at, freezes and sends to exactly the reachable members (call log)', async () => {
    type Log = { data: Array<{ to: string }> };
    const sandboxLog = async () =>
      ((await scene.sandbox(`/__sandbox/messages?phone_number_id=${shop.business.phone_number_id}`)) as Log)
        .data;
    await fc.assert(
      fc.asyncProperty(worldArb, definitionArb(tagIds, broadcastIds, true), async (world, definition) => {
        const contacts = await writeWorld(world);
        const expected = recountSegment(contacts, definition, new Date())
          .filter((c) => !c.opted_out)
          .map((c) => c.whatsapp_number)
          .sort();
        const saved = await api('POST', '/segments/', { name: 'Sent to', definition });
        const segmentId = saved.json().id as number;
        const recipients = { type: 'segment', segment_id: segmentId, percentage: 100 };
        const estimate = await api('POST', '/broadcast/estimate/', {
          template_id: shop.templateIds[0],
          recipients,
        });
        expect(estimate.status).toBe(200);
        expect(estimate.json().recipients).toBe(expected.length);
        const before = (await sandboxLog()).length;
        const created = await api('POST', '/broadcast/create/', {
          name: 'To a segment',
          template_id: shop.templateIds[0],
          recipients,
        });
        expect(created.status).toBe(201);
        const id = created.json().id as number;
        await scene.until(
          async () =>
            (await q<{ status: string }>('select status from broadcasts where id = $1', [id]))[0]!.status ===
            'completed',
          'the broadcast to complete',
        );
        const rows = await q<{ whatsapp_number: string; state: string }>(
          'select whatsapp_number, state from broadcast_messages where broadcast_id = $1 order by 1',
          [id],
        );
        expect(rows.map((r) => r.whatsapp_number)).toEqual(expected);
        const sent = (await sandboxLog()).slice(before).map((m) => `+${m.to}`);
        // Every member requested once; the sandbox refuses some numbers as not on WhatsApp before logging them.
        expect(new Set(sent).size).toBe(sent.length);
        expect(sent.every((n) => expected.includes(n))).toBe(true);
        const unsent = rows.filter((r) => !sent.includes(r.whatsapp_number));
        expect(unsent.every((r) => r.state === 'not_on_whatsapp' || r.state === 'failed')).toBe(true);
        expect((await api('DELETE', `/segments/${segmentId}/`)).status).toBe(204);
      }),
      { numRuns: 8 },
    );
  }, 180_000);
});

describe('segment requests', () => {
  const vip = () => ({
    match: 'all',
    groups: [
      { match: 'all', rules: [{ kind: 'tags', match: 'any', tag_ids: [tagIds[0]] }] },
      { match: 'any', rules: [{ kind: 'engagement', event: 'read', did: true, within_days: 30 }] },
    ],
  });
  const fieldOf = async (path: string, json: object) => {
    const answer = await api('POST', path, json);
    return { status: answer.status, field: answer.json().errors?.[0]?.field as string };
  };

  it('refuses rules naming what the account does not have, naming the rule’s field', async () => {
    const rule = (r: object) => ({ definition: { match: 'all', groups: [{ match: 'all', rules: [r] }] } });
    expect(
      await fieldOf('/segments/count/', rule({ kind: 'tags', match: 'any', tag_ids: [999_999] })),
    ).toEqual({
      status: 404,
      field: 'definition.groups.0.rules.0.tag_ids',
    });
    expect(
      await fieldOf('/segments/count/', rule({ kind: 'text', column: 'shoe_size', op: 'empty' })),
    ).toEqual({
      status: 400,
      field: 'definition.groups.0.rules.0.column',
    });
    expect(await fieldOf('/segments/count/', rule({ kind: 'market', markets: ['Atlantis'] }))).toEqual({
      status: 400,
      field: 'definition.groups.0.rules.0.markets',
    });
    expect(
      await fieldOf('/segments/count/', rule({ kind: 'number', column: 'age', min: 50, max: 20 })),
    ).toEqual({
      status: 400,
      field: 'definition.groups.0.rules.0.max',
    });
    expect(
      await fieldOf(
        '/segments/count/',
        rule({ kind: 'engagement', event: 'read', did: true, broadcast_id: 999_999 }),
      ),
    ).toEqual({ status: 404, field: 'definition.groups.0.rules.0.broadcast_id' });
    expect(await fieldOf('/segments/', { name: ' ', definition: vip() })).toEqual({
      status: 400,
      field: 'name',
    });
  });

  it('keeps one name per account, and another account sees none of them', async () => {
    const first = await api('POST', '/segments/', { name: 'Gold readers', definition: vip() });
    expect(first.status).toBe(201);
    expect(first.json().description).toEqual([
      'Tags: any of “vip”',
      'AND Read a broadcast in the last 30 days',
    ]);
    const again = await api('POST', '/segments/', { name: 'gold READERS', definition: vip() });
    expect(again.status).toBe(409);
    expect(again.json().errors[0].field).toBe('name');
    const other = await makeBusiness(scene.t, { email: 'other@segments.test' });
    const theirs = (method: string, path: string) =>
      callApi(scene.t, method, path, { headers: other.headers });
    const id = first.json().id as number;
    expect((await theirs('GET', `/segments/${id}/`)).status).toBe(404);
    expect((await theirs('DELETE', `/segments/${id}/`)).status).toBe(404);
    expect((await theirs('GET', `/recipient/create/?segment_id=${id}`)).status).toBe(404);
    expect((await theirs('GET', '/segments/')).json().results).toEqual([]);
    expect((await api('DELETE', `/segments/${id}/`)).status).toBe(204);
  });

  it('gives a broadcast its rules as they were, and refuses a segment with an earlier broadcast’s list', async () => {
    const saved = await api('POST', '/segments/', { name: 'Report rules', definition: vip() });
    const segmentId = saved.json().id as number;
    const recipients = { type: 'segment', segment_id: segmentId, percentage: 50 };
    const both = await api('POST', '/broadcast/create/', {
      name: 'Both',
      template_id: shop.templateIds[0],
      recipients,
      audience: { kind: 'broadcast_recipients', broadcast_id: broadcastIds[0] },
    });
    expect(both.status).toBe(400);
    expect(both.json().errors[0].field).toBe('recipients');
    const created = await api('POST', '/broadcast/create/', {
      name: 'Later',
      template_id: shop.templateIds[0],
      recipients,
      scheduled_time: Math.floor(Date.now() / 1000) + 3_600,
    });
    expect(created.status).toBe(201);
    // Changed and then deleted: the broadcast keeps what it was made with.
    await api('PUT', `/segments/${segmentId}/`, {
      name: 'Renamed',
      definition: {
        match: 'all',
        groups: [{ match: 'all', rules: [{ kind: 'opted_in', from: '2020-01-01' }] }],
      },
    });
    expect((await api('DELETE', `/segments/${segmentId}/`)).status).toBe(204);
    const report = (await api('GET', `/broadcast/${created.json().id}/recipients/`)).json();
    expect(report.broadcast.audience).toMatchObject({
      type: 'segment',
      percentage: 50,
      segment: {
        id: segmentId,
        name: 'Report rules',
        rules: ['Tags: any of “vip”', 'AND Read a broadcast in the last 30 days'],
      },
    });
    const gone = await api('POST', '/broadcast/estimate/', { template_id: shop.templateIds[0], recipients });
    expect(gone.status).toBe(400);
    expect(gone.json().errors[0].field).toBe('recipients.segment_id');
  });
});
