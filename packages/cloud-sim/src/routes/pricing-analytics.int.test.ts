import { beforeEach, describe, expect, it } from 'vitest';
import { call, signUpWithToken, type SignedUp } from '../../test/sandbox-client';
import { sandboxForFile } from '../../test/sandbox-for-file';

// Meta's pricing analytics over real HTTP: what the sandbox delivered, priced by its own rate table.
const sim = sandboxForFile('pricing-analytics');
let account: SignedUp;

const TEMPLATE = {
  name: 'world_offer',
  language: 'en_US',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'An offer for you.' }],
};

async function send(to: string) {
  const sent = await call(sim.url, `/v21.0/${account.phone_number_id}/messages`, {
    method: 'POST',
    token: account.token,
    json: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: { name: 'world_offer', language: { code: 'en_US' } },
    },
  });
  expect(sent.status).toBe(200);
}

const analytics = (fields: string, acc: SignedUp = account) =>
  call(sim.url, `/v21.0/${acc.waba_id}?fields=${encodeURIComponent(fields)}`, { token: acc.token });

const nowSeconds = () => Math.floor(Date.now() / 1000);

beforeEach(async () => {
  await call(sim.url, '/__sandbox/config', {
    method: 'POST',
    json: {
      status_delays_ms: { sent: 10, delivered: 20, read: 30 },
      delivered_rate: 1,
      us_marketing_rule: false,
      pair_rate_window_ms: 0,
    },
  });
  account = await signUpWithToken(sim.url, { business_name: 'Shop', phone_number: '15550001111' });
  const created = await call(sim.url, `/v21.0/${account.waba_id}/message_templates`, {
    method: 'POST',
    token: account.token,
    json: TEMPLATE,
  });
  await call(sim.url, `/__sandbox/templates/${created.body.id}/review`, {
    method: 'POST',
    json: { status: 'APPROVED' },
  });
});

describe('GET /{waba-id}?fields=pricing_analytics…', () => {
  it('answers the delivered messages’ volume and cost by country, with the WABA’s fields', async () => {
    const start = nowSeconds() - 60;
    for (const to of ['919812345601', '919812345602', '447911123401', '16285552001']) await send(to);
    const fields =
      `id,currency,pricing_analytics.start(${start}).end(${start + 3600}).granularity(DAILY)` +
      '.metric_types(["COST","VOLUME"]).dimensions(["COUNTRY","PRICING_CATEGORY","PRICING_TYPE"])';
    await expect
      .poll(async () => (await analytics(fields)).body.pricing_analytics?.data[0].data_points.length)
      .toBe(3);
    const { status, body } = await analytics(fields);
    expect(status).toBe(200);
    expect(body.id).toBe(account.waba_id);
    expect(body.currency).toBe('USD');
    const byCountry = Object.fromEntries(
      body.pricing_analytics.data[0].data_points.map((p: Record<string, unknown>) => [p.country, p]),
    );
    expect(byCountry.IN).toEqual({
      start,
      end: start + 3600,
      country: 'IN',
      pricing_type: 'REGULAR',
      pricing_category: 'MARKETING',
      volume: 2,
      cost: 0.0214,
    });
    expect([byCountry.GB.cost, byCountry.US.cost]).toEqual([0.0529, 0.025]);
  });

  it('bills only delivered messages', async () => {
    await call(sim.url, '/__sandbox/config', { method: 'POST', json: { delivered_rate: 0 } });
    const start = nowSeconds() - 60;
    await send('919812345601');
    // The message is sent (its status posted) but never delivered.
    await expect
      .poll(async () => (await call(sim.url, '/__sandbox/state')).body.messaging.statuses_posted)
      .toBe(1);
    const fields = `pricing_analytics.start(${start}).end(${start + 3600}).granularity(HALF_HOUR)`;
    const { body } = await analytics(fields);
    expect(body).toEqual({ id: account.waba_id, pricing_analytics: { data: [{ data_points: [] }] } });
  });

  it('answers Graph’s error for a bad granularity or time range, and for another customer’s WABA', async () => {
    const start = nowSeconds() - 60;
    const weekly = await analytics(
      `pricing_analytics.start(${start}).end(${start + 60}).granularity(WEEKLY)`,
    );
    expect(weekly.status).toBe(400);
    expect(weekly.body.error).toMatchObject({
      code: 100,
      type: 'OAuthException',
      message: '(#100) Invalid parameter: granularity must be one of HALF_HOUR, DAILY, MONTHLY; got WEEKLY',
    });
    const backwards = await analytics(
      `pricing_analytics.start(${start}).end(${start - 60}).granularity(DAILY)`,
    );
    expect(backwards.body.error.message).toBe('(#100) Invalid parameter: end must be after start');
    const noEnd = await analytics(`pricing_analytics.start(${start}).granularity(DAILY)`);
    expect(noEnd.body.error.message).toBe('(#100) The parameter end is required.');

    const other = await signUpWithToken(sim.url, { business_name: 'Other' });
    const foreign = await call(
      sim.url,
      `/v21.0/${account.waba_id}?fields=${encodeURIComponent(`pricing_analytics.start(${start}).end(${start + 60}).granularity(DAILY)`)}`,
      { token: other.token },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.error_subcode).toBe(33);
  });
});

describe('GET /{waba-id}/pricing_analytics', () => {
  it('takes the same filters as query parameters and answers the data points', async () => {
    const start = nowSeconds() - 60;
    await send('447911123401');
    const query = new URLSearchParams({
      start: String(start),
      end: String(start + 3600),
      granularity: 'MONTHLY',
      phone_numbers: '["15550001111"]',
      dimensions: '["PHONE"]',
    });
    const read = () =>
      call(sim.url, `/v21.0/${account.waba_id}/pricing_analytics?${query}`, { token: account.token });
    await expect.poll(async () => (await read()).body.data?.[0].data_points.length).toBe(1);
    expect((await read()).body).toEqual({
      data: [
        {
          data_points: [{ start, end: start + 3600, phone_number: '15550001111', volume: 1, cost: 0.0529 }],
        },
      ],
    });
    query.set('granularity', 'YEARLY');
    expect((await read()).body.error.code).toBe(100);
  });
});
