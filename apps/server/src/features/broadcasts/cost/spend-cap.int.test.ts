import { spendCapReason } from '@herald/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { SecretBox } from '../../../security/secret-box';
import { setFrequencyCap } from '../../../../../../test-support/business';
import { signedInUser } from '../../auth/auth-test-helpers';
import { marketOfNumber } from '../../pricing/markets';
import { loadRateCard, rateOn } from '../../pricing/rate-card';
import { BroadcastEngine } from '../sending/broadcast-engine';
import type { SendResult } from '../sending/message-settle';
import { MessageSender } from '../sending/message-sender';
import { cutAtSpendCap } from './spend-cap';

// Decision 052: a broadcast's spend cap pauses it before its billable cost could pass the cap.
let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let headers: Record<string, string>;
let engine: BroadcastEngine;
let sender: MessageSender;
let templateId: number;
const card = loadRateCard();
const today = () => new Date().toISOString().slice(0, 10);
/** Today's marketing rate of a number's market, as the rate card has it. */
const rate = (number: string) => rateOn(card, marketOfNumber(number), 'marketing', today())!;

/** 12 North America numbers and 12 Indian ones: two markets at different rates. */
const NUMBERS = [
  ...Array.from({ length: 12 }, (_, i) => `+1415555${String(2000 + i)}`),
  ...Array.from({ length: 12 }, (_, i) => `+9198765${String(43000 + i)}`),
];

const create = (body: Record<string, unknown>, as = headers) =>
  t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers: as,
    payload: {
      name: 'Capped',
      template_id: templateId,
      recipients: { type: 'all', percentage: 100 },
      ...body,
    },
  });
const resume = (id: number, payload?: object, as = headers) =>
  t.app.inject({
    method: 'POST',
    url: `/broadcast/${id}/resume/`,
    headers: as,
    ...(payload ? { payload } : {}),
  });
const broadcastRow = async (id: number) =>
  (
    await t.db.pool.query(
      'select status, status_reason, spend_cap::float8, spend_committed::float8, spend_needed::float8 from broadcasts where id = $1',
      [id],
    )
  ).rows[0];

/** What the sandbox accepted for a broadcast: its message rows' numbers, from the sandbox's own log. */
async function acceptedBySandbox(id: number): Promise<string[]> {
  const log = (await fetch(
    `${t.sandboxUrl}/__sandbox/messages?phone_number_id=${owner.business.phone_number_id}&limit=100000`,
  ).then((r) => r.json())) as { data: Array<{ to: string; biz_opaque_callback_data: string }> };
  const { rows } = await t.db.pool.query<{ id: string }>(
    'select id::text from broadcast_messages where broadcast_id = $1',
    [id],
  );
  const mine = new Set(rows.map((r) => r.id));
  return log.data.filter((m) => mine.has(m.biz_opaque_callback_data)).map((m) => `+${m.to}`);
}

async function runUntil(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await engine.tick();
    await engine.idle();
    await t.app.webhooks.idle();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A few more engine passes: enough for a sender to claim again if anything were claimable. */
async function moreTicks() {
  for (let i = 0; i < 3; i += 1) {
    await engine.tick();
    await engine.idle();
  }
}

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await fetch(`${t.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      webhook_url: `${address}/webhooks/whatsapp`,
      review_delay_ms: 50,
      us_marketing_rule: false,
      // The same recipients get several broadcasts here: no pair rate limit in the way.
      pair_rate_window_ms: 0,
    }),
  });
  owner = await signedInUser(t, 'spend-cap@acme.test');
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  // Several marketing broadcasts to the same people: no frequency cap in the way.
  await setFrequencyCap(t, headers, null);
  const account = (
    await t.db.pool.query('select id::int from waba_accounts where waba_id = $1', [owner.business.waba_id])
  ).rows[0].id;
  for (const [i, number] of NUMBERS.entries()) {
    await t.db.pool.query(
      'insert into contacts (waba_account_id, name, whatsapp_number) values ($1, $2, $3)',
      [account, `Person ${i}`, number],
    );
  }
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'capped_offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hello' }],
    },
  });
  templateId = template.json().id;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await t.app.webhooks.idle();
    const { rows } = await t.db.pool.query('select status from templates where id = $1', [templateId]);
    if (rows[0].status === 'APPROVED') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  sender = new MessageSender(t.sandboxUrl, 'v21.0');
  // Small slices and batches of the claim's size: the cap is checked batch by batch as the audience is written.
  engine = new BroadcastEngine({
    pool: t.db.pool,
    sender,
    secrets: new SecretBox(t.config.ENCRYPTION_KEY!),
    audienceRows: { first: 5, slice: 7 },
  });
});

afterAll(async () => {
  await engine?.stop();
  sender?.close();
  await t.close();
});

describe('spend cap', () => {
  it('refuses a cap that is not a positive amount with at most 2 decimals, naming spend_cap', async () => {
    for (const spend_cap of [0, -5, 12.345, 'ten']) {
      const response = await create({ spend_cap });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('spend_cap');
      expect(response.json().message).toContain('spend_cap');
    }
  });

  it('pauses the broadcast before its cost would pass the cap, and nothing is sent after', async () => {
    // Room for about half the audience at its mixed rates.
    const total = NUMBERS.reduce((sum, n) => sum + rate(n), 0);
    const cap = Math.floor((total / 2) * 100) / 100;
    const created = await create({ name: 'Half the budget', spend_cap: cap });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'paused');
    await moreTicks();

    const sent = await acceptedBySandbox(id);
    const spent = sent.reduce((sum, n) => sum + rate(n), 0);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(NUMBERS.length);
    expect(new Set(sent).size).toBe(sent.length);
    expect(spent).toBeLessThanOrEqual(cap + 1e-9);
    const row = await broadcastRow(id);
    expect(row.spend_committed).toBeCloseTo(spent, 6);
    // The message that stopped it would have passed the cap.
    expect(row.spend_needed).toBeGreaterThan(cap);
    expect(row.status_reason).toBe(spendCapReason(row.spend_committed, cap));

    // The history shows why, with the cap.
    const list = await t.app.inject({ method: 'GET', url: '/broadcast/create/?search=Half', headers });
    expect(list.json().results[0]).toMatchObject({
      id,
      status: 'paused',
      status_reason: row.status_reason,
      spend_cap: cap,
    });
    const report = await t.app.inject({ method: 'GET', url: `/broadcast/${id}/recipients/`, headers });
    expect(report.json().broadcast.spend_cap).toBe(cap);

    // Resuming as it is, or with a cap that would not let the next message go, is refused naming spend_cap.
    for (const payload of [undefined, { spend_cap: cap }]) {
      const refused = await resume(id, payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errors[0].field).toBe('spend_cap');
    }
    // Another account cannot lift it.
    const stranger = await signedInUser(t, 'spend-cap-stranger@herald.test', 'Stranger Co');
    const foreign = await resume(
      id,
      { spend_cap: null },
      {
        authorization: `Bearer ${stranger.accessToken}`,
        'x-waba-id': stranger.business.waba_id,
      },
    );
    expect(foreign.statusCode).toBe(404);
    await moreTicks();
    expect(await acceptedBySandbox(id)).toHaveLength(sent.length);
    expect((await broadcastRow(id)).spend_cap).toBe(cap);

    // Removing the cap lets the rest go, each recipient once.
    const lifted = await resume(id, { spend_cap: null });
    expect(lifted.statusCode).toBe(200);
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    const all = await acceptedBySandbox(id);
    expect(all.sort()).toEqual([...NUMBERS].sort());
  });

  it('resumes with a raised cap and pauses again at the new one', async () => {
    const created = await create({ name: 'Raised', spend_cap: 0.05 });
    const id = created.json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'paused');
    const first = await acceptedBySandbox(id);
    const { spend_needed: needed } = await broadcastRow(id);
    const raised = Math.ceil(needed * 100) / 100;
    expect((await resume(id, { spend_cap: raised })).statusCode).toBe(200);
    await runUntil(async () => {
      const row = await broadcastRow(id);
      return row.status === 'paused' || row.status === 'completed';
    });
    await moreTicks();
    const after = await acceptedBySandbox(id);
    expect(after.length).toBeGreaterThan(first.length);
    expect(after.reduce((sum, n) => sum + rate(n), 0)).toBeLessThanOrEqual(raised + 1e-9);
    expect((await broadcastRow(id)).status_reason).toMatch(/^Spend cap reached: \$[\d.]+ of \$/);
  });

  it('leaves a broadcast without a cap as it was: every recipient sent, nothing counted', async () => {
    const id = (await create({ name: 'Uncapped' })).json().id;
    await runUntil(async () => (await broadcastRow(id)).status === 'completed');
    expect((await acceptedBySandbox(id)).sort()).toEqual([...NUMBERS].sort());
    expect(await broadcastRow(id)).toMatchObject({
      spend_cap: null,
      spend_committed: 0,
      status_reason: null,
    });
    const counted = await t.db.pool.query(
      'select count(*)::int as n from broadcast_messages where broadcast_id = $1 and spend_counted',
      [id],
    );
    expect(counted.rows[0].n).toBe(0);
  });

  it('counts a message once: one given back unsent and claimed again is not counted twice', async () => {
    // Created for later, then made 'sending' by hand: no engine pass runs during this test.
    const id = (
      await create({
        name: 'Counted once',
        spend_cap: 0.1,
        scheduled_time: Math.floor(Date.now() / 1000) + 3600,
      })
    ).json().id;
    await t.db.pool.query(`update broadcasts set status = 'sending' where id = $1`, [id]);
    const numbers = NUMBERS.slice(0, 5); // North America: 0.025 each, so 4 fit a cap of 0.10 exactly
    const { rows } = await t.db.pool.query<{ id: number }>(
      `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state)
       select (select waba_account_id from broadcasts where id = $1), $1::bigint, n, 'sending' from unnest($2::text[]) with ordinality u(n, i) order by i returning id::int`,
      [id, numbers],
    );
    const claimed = rows.map((row, i) => ({
      message: {
        id: row.id,
        broadcast_id: id,
        whatsapp_number: numbers[i]!,
        attempts: 1,
        contact: null,
        opted_out: false,
      },
    }));
    const unsent: SendResult[] = [];
    const account = (await t.db.pool.query('select waba_account_id::int from broadcasts where id = $1', [id]))
      .rows[0].waba_account_id as number;
    expect(await cutAtSpendCap(t.db.pool, account, card, claimed.slice(0, 3), unsent)).toHaveLength(3);
    // The same three again (given back by the messaging limit, say, and claimed again): nothing more is counted.
    expect(await cutAtSpendCap(t.db.pool, account, card, claimed.slice(0, 3), unsent)).toHaveLength(3);
    expect((await broadcastRow(id)).spend_committed).toBeCloseTo(3 * rate(numbers[0]!), 6);
    // Then all five: the fourth takes it to the cap exactly, the fifth would pass it.
    const allowed = await cutAtSpendCap(t.db.pool, account, card, claimed, unsent);
    expect(allowed.map(({ message }) => message.id)).toEqual(rows.slice(0, 4).map((row) => row.id));
    expect(unsent).toEqual([{ id: rows[4]!.id, state: 'released' }]);
    expect(await broadcastRow(id)).toMatchObject({
      status: 'paused',
      status_reason: 'Spend cap reached: $0.10 of $0.10',
      spend_committed: 0.1,
      spend_needed: 0.125,
    });
    await t.db.pool.query(`update broadcasts set status = 'cancelled' where id = $1`, [id]);
    await t.db.pool.query(`update broadcast_messages set state = 'cancelled' where broadcast_id = $1`, [id]);
  });
});
