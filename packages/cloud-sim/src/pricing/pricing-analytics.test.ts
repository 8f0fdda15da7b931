import { describe, expect, it } from 'vitest';
import type { GraphError } from '../errors';
import type { MessageInfo } from '../messages/status-payload';
import { modifiersOf, splitTopLevel } from '../graph-filters';
import { readAnalyticsQuery, type AnalyticsQuery } from './analytics-params';
import { BillingLedger } from './billing-ledger';
import { buckets, pricingAnalytics } from './pricing-analytics';

const DAY = 86_400;
// 2026-11-01T07:00:00Z, as Meta's examples start their days.
const START = Date.UTC(2026, 10, 1, 7) / 1000;

const message = (
  wamid: string,
  recipient: string,
  category = 'marketing',
  phone = '15550001111',
): MessageInfo => ({
  wamid,
  phoneNumberId: 'pn-1',
  wabaId: 'waba-1',
  displayDigits: phone,
  recipient,
  bizOpaqueCallbackData: null,
  category,
  conversationId: 'c',
});

function ledgerWith(events: [MessageInfo, 'sent' | 'delivered' | 'read', number][]): BillingLedger {
  const ledger = new BillingLedger();
  for (const [m, status, timestamp] of events) ledger.observe({ message: m, status, timestamp });
  return ledger;
}

const query = (overrides: Partial<AnalyticsQuery> = {}): AnalyticsQuery => ({
  start: START,
  end: START + 3 * DAY,
  granularity: 'DAILY',
  phoneNumbers: [],
  countryCodes: [],
  metricTypes: [],
  pricingTypes: [],
  pricingCategories: [],
  dimensions: [],
  ...overrides,
});

describe('the billing ledger', () => {
  it('bills a message once, when it is delivered, at its market’s rate', () => {
    const india = message('w1', '919812345601');
    const ledger = ledgerWith([
      [india, 'sent', START],
      [india, 'delivered', START + 10],
      [india, 'delivered', START + 20], // a duplicated status
      [india, 'read', START + 30],
      [message('w2', '447911123401'), 'sent', START], // never delivered: not billed
    ]);
    expect(ledger.between('waba-1', START, START + DAY)).toEqual([
      {
        wabaId: 'waba-1',
        phoneNumber: '15550001111',
        country: 'IN',
        pricingCategory: 'MARKETING',
        pricingType: 'REGULAR',
        deliveredAt: START + 10,
        cost: 0.0107,
      },
    ]);
  });

  it('names a BSUID’s country from its prefix and an unlisted calling code ZZ at the Other rate', () => {
    const ledger = ledgerWith([
      [message('w1', 'GB.13491208655302741918', 'utility'), 'delivered', START],
      [message('w2', '3581234567', 'marketing'), 'delivered', START],
    ]);
    expect(ledger.between('waba-1', START, START + 1).map((b) => [b.country, b.cost])).toEqual([
      ['GB', 0.022],
      ['ZZ', 0.0604],
    ]);
  });
});

describe('the North American plan', () => {
  it('bills +1 by its area code: Canada and the US at their shared rate, Jamaica as Other, a 555 test number as US', () => {
    const ledger = ledgerWith([
      [message('w1', '14165550123'), 'delivered', START],
      [message('w2', '12125550199'), 'delivered', START],
      [message('w3', '18765551234'), 'delivered', START],
      [message('w4', '15550001111'), 'delivered', START],
    ]);
    expect(ledger.between('waba-1', START, START + 1).map((b) => [b.country, b.cost])).toEqual([
      ['CA', 0.025],
      ['US', 0.025],
      ['JM', 0.0604],
      ['US', 0.025],
    ]);
  });
});

describe('buckets', () => {
  it('counts half hours and days from start and cuts the last at end', () => {
    expect(buckets(START, START + 4000, 'HALF_HOUR')).toEqual([
      [START, START + 1800],
      [START + 1800, START + 3600],
      [START + 3600, START + 4000],
    ]);
    expect(buckets(START, START + DAY + 5, 'DAILY')).toEqual([
      [START, START + DAY],
      [START + DAY, START + DAY + 5],
    ]);
  });

  it('counts calendar months, a 31st ending on the next month’s last day', () => {
    const jan31 = Date.UTC(2026, 0, 31) / 1000;
    const [first, second] = buckets(jan31, Date.UTC(2026, 3, 1) / 1000, 'MONTHLY');
    expect(first).toEqual([jan31, Date.UTC(2026, 1, 28) / 1000]);
    expect(second?.[0]).toBe(Date.UTC(2026, 1, 28) / 1000);
  });
});

describe('pricing analytics over the ledger', () => {
  const ledger = ledgerWith([
    [message('w1', '919812345601'), 'delivered', START + 100],
    [message('w2', '919812345602'), 'delivered', START + 200],
    [message('w3', '447911123401'), 'delivered', START + DAY + 5],
    [message('w4', '16285552001', 'utility', '15550002222'), 'delivered', START + DAY + 6],
    [message('w5', '16285552002'), 'delivered', START + 3 * DAY], // at end: outside [start, end)
  ]);

  it('without dimensions answers one point per bucket with messages, newest first', () => {
    expect(pricingAnalytics(ledger, 'waba-1', query())).toEqual({
      data: [
        {
          data_points: [
            { start: START + DAY, end: START + 2 * DAY, volume: 2, cost: 0.0563 },
            { start: START, end: START + DAY, volume: 2, cost: 0.0214 },
          ],
        },
      ],
    });
  });

  it('breaks down by the dimensions asked and keeps only the metrics asked', () => {
    const points = pricingAnalytics(
      ledger,
      'waba-1',
      query({ dimensions: ['COUNTRY', 'PRICING_CATEGORY', 'PHONE'], metricTypes: ['VOLUME'] }),
    ).data[0]?.data_points;
    expect(points).toContainEqual({
      start: START + DAY,
      end: START + 2 * DAY,
      phone_number: '15550002222',
      country: 'US',
      pricing_category: 'UTILITY',
      volume: 1,
    });
    expect(points).toHaveLength(3);
  });

  it('filters by phone number, country, pricing category and type', () => {
    const only = (q: Partial<AnalyticsQuery>) =>
      pricingAnalytics(ledger, 'waba-1', query({ granularity: 'MONTHLY', ...q })).data[0]?.data_points;
    expect(only({ phoneNumbers: ['15550002222'] })).toEqual([
      { start: START, end: START + 3 * DAY, volume: 1, cost: 0.0034 },
    ]);
    expect(only({ countryCodes: ['IN', 'GB'] })?.[0]?.volume).toBe(3);
    expect(only({ pricingCategories: ['MARKETING'] })?.[0]?.volume).toBe(3);
    expect(only({ pricingTypes: ['FREE_CUSTOMER_SERVICE'] })).toEqual([]);
    expect(pricingAnalytics(ledger, 'waba-2', query()).data[0]?.data_points).toEqual([]);
  });
});

describe('reading the filters', () => {
  const NOW = START + 10 * DAY;
  const read = (fields: string) => {
    const modifiers = modifiersOf(fields);
    return readAnalyticsQuery((name) => modifiers[name], NOW);
  };
  const failure = (fields: string) => {
    try {
      read(fields);
    } catch (error) {
      return { code: (error as GraphError).code, message: (error as GraphError).message };
    }
    throw new Error('expected a Graph error');
  };

  it('reads Meta’s modifier syntax, quoted or not', () => {
    const fields = `pricing_analytics.start(${START}).end(${NOW}).granularity(half_hour).dimensions(["COUNTRY","PHONE"]).country_codes([US,IN]).metric_types(["COST"]).phone_numbers([])`;
    expect(splitTopLevel(`id,currency,${fields}`)).toEqual(['id', 'currency', fields]);
    expect(read(fields)).toMatchObject({
      granularity: 'HALF_HOUR',
      dimensions: ['COUNTRY', 'PHONE'],
      countryCodes: ['US', 'IN'],
      metricTypes: ['COST'],
      phoneNumbers: [],
    });
  });

  it('answers Graph’s invalid-parameter error naming what is wrong', () => {
    expect(failure(`pricing_analytics.end(${NOW}).granularity(DAILY)`)).toEqual({
      code: 100,
      message: '(#100) The parameter start is required.',
    });
    expect(failure(`pricing_analytics.start(${START}).end(${NOW}).granularity(WEEKLY)`).message).toBe(
      '(#100) Invalid parameter: granularity must be one of HALF_HOUR, DAILY, MONTHLY; got WEEKLY',
    );
    expect(failure(`pricing_analytics.start(${NOW}).end(${START}).granularity(DAILY)`).message).toBe(
      '(#100) Invalid parameter: end must be after start',
    );
    expect(
      failure(`pricing_analytics.start(${NOW - 400 * DAY}).end(${NOW}).granularity(DAILY)`).message,
    ).toMatch(/start must be within the last year/);
    expect(
      failure(
        `pricing_analytics.start(${START}).end(${NOW}).granularity(DAILY).dimensions([CONVERSATION_TYPE])`,
      ).message,
    ).toMatch(
      /dimensions must be among COUNTRY, PHONE, PRICING_CATEGORY, PRICING_TYPE, TIER; got CONVERSATION_TYPE/,
    );
  });
});
