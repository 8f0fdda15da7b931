import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { postMessagesWebhook } from '../webhooks/webhook-test-helpers';
import { DEFAULT_RATE_CARD_FILE, loadRateCard, RateCardError } from './rate-card';

// The estimate by market, the cost from the pricing status webhooks state, the rate card.
const dir = mkdtempSync(path.join(tmpdir(), 'herald-rate-card-'));
/** Herald's card plus new India and United Kingdom rates from 2026-10-01: a rate change to price across. */
const cardFile = path.join(dir, 'rate-card.csv');
writeFileSync(
  cardFile,
  `${readFileSync(DEFAULT_RATE_CARD_FILE, 'utf8')}India,2026-10-01,0.0200,0.0030,0.0030,0.0300,0.0010\n` +
    'United Kingdom,2026-10-01,0.0600,0.0250,0.0250,,0\n',
);

let t: TestApp;
let headers: Record<string, string>;
let wabaId: string;
let accountId: number;
let phoneId: number;

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  t.db.pool.query(sql, params).then((r) => r.rows as T[]);

async function template(name: string, category: string): Promise<number> {
  return (
    await q<{ id: number }>(
      `insert into templates (waba_account_id, name, language, category, status, components)
       values ($1, $2, 'en_US', $3, 'APPROVED', '[]') returning id::int`,
      [accountId, name, category],
    )
  )[0]!.id;
}

const estimate = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/pricing/estimate/', headers, payload });
const costs = (ids: number[]) =>
  t.app.inject({ method: 'GET', url: `/pricing/broadcasts/?ids=${ids.join(',')}`, headers });

/** A sent broadcast with one message per number (row ids in the numbers' order). */
async function broadcast(numbers: string[]): Promise<{ id: number; rows: number[] }> {
  const id = (
    await q<{ id: number }>(
      `insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, total_recipients)
       values ($1, $2, 'promo', 'en_US', 'Priced', '{}', now(), 'sending', $3) returning id::int`,
      [accountId, phoneId, numbers.length],
    )
  )[0]!.id;
  const rows = await q<{ id: number }>(
    `insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, accepted_at)
     select (select waba_account_id from broadcasts where id = $1), $1::bigint, n, 'accepted', now() from unnest($2::text[]) with ordinality u(n, i)
     order by i returning id::int`,
    [id, numbers],
  );
  return { id, rows: rows.map((r) => r.id) };
}

const delivered = (rowId: number, pricing: object) => ({
  id: `wamid.x${rowId}`,
  status: 'delivered',
  timestamp: '1750000000',
  recipient_id: '1',
  biz_opaque_callback_data: String(rowId),
  pricing: { pricing_model: 'PMP', ...pricing },
});

beforeAll(async () => {
  t = await startTestApp({ RATE_CARD_FILE: cardFile });
  const owner = await signedInUser(t, 'pricing@example.com', 'Pricing Shop');
  wabaId = owner.business.waba_id;
  headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': wabaId };
  accountId = (await q<{ id: number }>('select id::int from waba_accounts where waba_id = $1', [wabaId]))[0]!
    .id;
  phoneId = (
    await q<{ id: number }>('select id::int from phone_numbers where waba_account_id = $1', [accountId])
  )[0]!.id;
});

afterAll(async () => {
  await t?.close();
});

describe('cost before: the estimate', () => {
  it('equals the sum over markets of recipients × the rate of the template category in effect today', async () => {
    // 3 India, 2 United Kingdom, 2 Germany, 1 North America (+1 415), 1 Kenya (Rest of Africa), 1 opted out.
    const numbers = [
      '+919876500001',
      '+919876500002',
      '+919876500003',
      '+447700900001',
      '+447700900002',
      '+4915123400001',
      '+4915123400002',
      '+14155550101',
      '+254712000001',
    ];
    await q(
      `insert into contacts (waba_account_id, name, whatsapp_number) select $1, 'P ' || n, n from unnest($2::text[]) n`,
      [accountId, numbers],
    );
    await q(
      `insert into contacts (waba_account_id, name, whatsapp_number, opted_out_at) values ($1, 'Out', '+919876500009', now())`,
      [accountId],
    );
    const marketing = await template('promo_cost', 'MARKETING');
    const response = await estimate({ template_id: marketing, recipients: { type: 'all', percentage: 100 } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    // Today is after 2026-10-01: India and the UK at their new rates, the others at 2025-07-01's.
    const expected = 3 * 0.02 + 2 * 0.06 + 2 * 0.1365 + 0.025 + 0.0225;
    expect(body.total).toBeCloseTo(expected, 6);
    expect(body.recipients).toBe(9);
    expect(body.category).toBe('marketing');
    expect(body.rate_card.effective_from).toBe('2026-10-01');
    expect(body.markets).toEqual([
      { market: 'Germany', messages: 2, rate: 0.1365, cost: 0.273 },
      { market: 'United Kingdom', messages: 2, rate: 0.06, cost: 0.12 },
      { market: 'India', messages: 3, rate: 0.02, cost: 0.06 },
      { market: 'North America', messages: 1, rate: 0.025, cost: 0.025 },
      { market: 'Rest of Africa', messages: 1, rate: 0.0225, cost: 0.0225 },
    ]);
    const sum = body.markets.reduce((s: number, m: { cost: number }) => s + m.cost, 0);
    expect(body.total).toBeCloseTo(sum, 6);

    // A utility template is priced at the utility rates; half the audience, half of each market.
    const utility = await template('notice_cost', 'UTILITY');
    const half = (
      await estimate({ template_id: utility, recipients: { type: 'all', percentage: 50 } })
    ).json();
    expect(half.category).toBe('utility');
    expect(half.markets.find((m: { market: string }) => m.market === 'India')).toEqual({
      market: 'India',
      messages: 2,
      rate: 0.003,
      cost: 0.006,
    });
  });

  it('counts a tag audience as the recipients estimate does, opted-out contacts left out', async () => {
    const tag = (
      await q<{ id: number }>(
        `insert into tags (waba_account_id, name) values ($1, 'Europe') returning id::int`,
        [accountId],
      )
    )[0]!.id;
    await q(
      `insert into contact_tags (waba_account_id, contact_id, tag_id)
       select waba_account_id, id, $2 from contacts where waba_account_id = $1 and whatsapp_number ~ '^[+](44|49|91987650000[19])'`,
      [accountId, tag],
    );
    const marketing = (await q<{ id: number }>(`select id::int from templates where name = 'promo_cost'`))[0]!
      .id;
    const body = {
      template_id: marketing,
      recipients: { type: 'filtered', tag_ids: [tag], percentage: 100 },
    };
    const cost = (await estimate(body)).json();
    const recipients = (
      await t.app.inject({ method: 'POST', url: '/broadcast/estimate/', headers, payload: body })
    ).json().recipients;
    // 2 UK, 2 Germany and one India number (the other tagged India contact opted out).
    expect(cost.recipients).toBe(5);
    expect(recipients).toBe(5);
    expect(cost.total).toBeCloseTo(2 * 0.06 + 2 * 0.1365 + 0.02, 6);
  });

  it('names the field of a bad request and answers without a template with no total', async () => {
    const bad = await estimate({ template_id: 999_999, recipients: { type: 'all', percentage: 100 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/template/i);
    const none = (await estimate({ recipients: { type: 'all', percentage: 100 } })).json();
    expect(none.total).toBeNull();
    expect(none.recipients).toBe(9);
  });
});

describe('cost after: from the pricing the status webhooks state', () => {
  it('stores each status’s pricing with its message and counts billable and free apart', async () => {
    const { id, rows } = await broadcast([
      '+919876511111',
      '+919876522222',
      '+447700911111',
      '+4915123411111',
    ]);
    const statuses = [
      delivered(rows[0]!, { billable: true, category: 'marketing', type: 'regular' }),
      delivered(rows[1]!, { billable: false, category: 'service', type: 'free_customer_service' }),
      delivered(rows[2]!, { billable: true, category: 'marketing_lite', type: 'regular' }),
      // No pricing yet for the fourth: it is neither billable nor free, and costs nothing.
      { ...delivered(rows[3]!, {}), pricing: undefined },
    ];
    expect((await postMessagesWebhook(t, wabaId, { statuses })).statusCode).toBe(200);
    const stored = await q(
      `select pricing_billable, pricing_model, pricing_category, pricing_type, priced_at is not null as priced
         from broadcast_messages where broadcast_id = $1 order by id`,
      [id],
    );
    expect(stored).toEqual([
      {
        pricing_billable: true,
        pricing_model: 'PMP',
        pricing_category: 'marketing',
        pricing_type: 'regular',
        priced: true,
      },
      {
        pricing_billable: false,
        pricing_model: 'PMP',
        pricing_category: 'service',
        pricing_type: 'free_customer_service',
        priced: true,
      },
      {
        pricing_billable: true,
        pricing_model: 'PMP',
        pricing_category: 'marketing_lite',
        pricing_type: 'regular',
        priced: true,
      },
      {
        pricing_billable: null,
        pricing_model: null,
        pricing_category: null,
        pricing_type: null,
        priced: false,
      },
    ]);
    const [cost] = (await costs([id])).json().costs;
    expect(cost).toMatchObject({ broadcast_id: id, currency: 'USD', billable: 2, free: 1, unpriced: 1 });
    // Only the billable ones: India marketing and the UK's marketing_lite at the marketing rate.
    expect(cost.cost).toBeCloseTo(0.02 + 0.06, 6);
  });

  it('prices messages on each side of a rate change at their own day’s rate', async () => {
    const { id, rows } = await broadcast(['+919876533333', '+919876544444', '+919876555555']);
    await postMessagesWebhook(t, wabaId, {
      statuses: rows.map((row) => delivered(row, { billable: true, category: 'marketing', type: 'regular' })),
    });
    // Two were priced the day before India's new rate, one on its first day.
    await q(`update broadcast_messages set priced_at = '2026-09-30T23:59:00Z' where id = any($1::bigint[])`, [
      rows.slice(0, 2),
    ]);
    await q(`update broadcast_messages set priced_at = '2026-10-01T00:00:00Z' where id = $1`, [rows[2]]);
    const [cost] = (await costs([id])).json().costs;
    expect(cost.cost).toBeCloseTo(2 * 0.0107 + 0.02, 6);
    expect(cost.markets).toEqual([{ market: 'India', messages: 3, rate: null, cost: 0.0414 }]);
  });

  it('counts what Meta says it charged where a status states it (a max-price message), the rest at the rate', async () => {
    const { id, rows } = await broadcast(['+919876566666', '+919876577777', '+447700922222']);
    const sent = (rowId: number, pricing: object) => ({ ...delivered(rowId, pricing), status: 'sent' });
    await postMessagesWebhook(t, wabaId, {
      statuses: [
        // Meta states the charge on the delivered and read statuses of a max-price message, not on sent.
        sent(rows[0]!, { billable: true, category: 'marketing', type: 'regular' }),
        delivered(rows[0]!, {
          billable: true,
          category: 'marketing',
          type: 'regular',
          cost: { amount: 0.0125, currency: 'USD' },
        }),
        delivered(rows[1]!, {
          billable: true,
          category: 'marketing',
          type: 'regular',
          cost: { amount: '0.0131', currency: 'USD' },
        }),
        // A charge in another currency is not Herald's to add: that message counts at the rate.
        delivered(rows[2]!, {
          billable: true,
          category: 'marketing',
          type: 'regular',
          cost: { amount: 0.05, currency: 'EUR' },
        }),
      ],
    });
    const stored = await q<{ pricing_cost: string | null }>(
      'select pricing_cost::text from broadcast_messages where broadcast_id = $1 order by id',
      [id],
    );
    expect(stored.map((row) => row.pricing_cost)).toEqual(['0.012500', '0.013100', null]);
    // A later status without it keeps the stated charge.
    await postMessagesWebhook(t, wabaId, {
      statuses: [{ ...delivered(rows[0]!, { billable: true, category: 'marketing' }), status: 'read' }],
    });
    const [cost] = (await costs([id])).json().costs;
    expect(cost.billable).toBe(3);
    // India: 0.0125 + 0.0131 as stated; the UK message at today's UK marketing rate (0.06 from 2026-10-01).
    expect(cost.markets).toEqual([
      { market: 'United Kingdom', messages: 1, rate: 0.06, cost: 0.06 },
      { market: 'India', messages: 2, rate: null, cost: 0.0256 },
    ]);
    expect(cost.cost).toBeCloseTo(0.0856, 6);
  });

  it('answers 404 for another account’s broadcast and names a malformed ids field', async () => {
    const stranger = await signedInUser(t, 'other-pricing@example.com', 'Other Shop');
    const { id } = await broadcast(['+919876566666']);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/pricing/broadcasts/?ids=${id}`,
      headers: { authorization: `Bearer ${stranger.accessToken}`, 'x-waba-id': stranger.business.waba_id },
    });
    // Another account's broadcast is not found, as any id a request names (never an empty answer).
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ errors: [{ field: 'ids' }] });
    expect(theirs.body).not.toContain('919876566666');
    const bad = await t.app.inject({ method: 'GET', url: '/pricing/broadcasts/?ids=1,x', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/ids/);
  });
});

describe('the rate card', () => {
  it('loads Herald’s own card with its source', () => {
    const card = loadRateCard();
    expect(card.source).toMatch(/^https:\/\/developers\.facebook\.com\//);
    expect(card.currency).toBe('USD');
  });

  it('refuses a malformed card naming the file and the row, and the app does not start with it', async () => {
    const bad = path.join(dir, 'bad.csv');
    const lines = readFileSync(DEFAULT_RATE_CARD_FILE, 'utf8').split('\n');
    const row = lines.findIndex((line) => line.startsWith('India,'));
    lines[row] = 'India,2025-07-01,0.0107,cheap,0.0014,0.0280,0';
    writeFileSync(bad, lines.join('\n'));
    expect(() => loadRateCard(bad)).toThrow(RateCardError);
    expect(() => loadRateCard(bad)).toThrow(
      `Rate card ${bad}: row ${row + 1}: utility "cheap" is not a rate`,
    );
    await expect(startTestApp({ RATE_CARD_FILE: bad })).rejects.toThrow(`row ${row + 1}`);
  });
});
