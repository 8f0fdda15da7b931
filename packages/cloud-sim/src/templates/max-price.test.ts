import { describe, expect, it } from 'vitest';
import { GraphError } from '../errors';
import {
  editedMaxPrice,
  maxPriceCharge,
  maxPriceOfSend,
  parseBidMultiplier,
  parseOptimizationSpec,
  refuseBidSpec,
} from './max-price';

const spec = (bid_amount: unknown, bid_strategy: unknown = 'LOWEST_COST_WITH_BID_CAP') => ({
  bid_amount,
  bid_strategy,
});

/** The Graph error a call throws, for its code and message. */
function thrown(call: () => unknown): GraphError {
  try {
    call();
  } catch (error) {
    if (error instanceof GraphError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('parseOptimizationSpec', () => {
  it('answers the bid_amount of a marketing template, also from a form body', () => {
    expect(parseOptimizationSpec(spec(87000), 'MARKETING')).toBe(87000);
    expect(parseOptimizationSpec(JSON.stringify(spec('5000')), 'MARKETING')).toBe(5000);
    expect(parseOptimizationSpec(spec(2_147_483_647), 'MARKETING')).toBe(2_147_483_647);
  });

  it.each([0, -1, 1.5, 2_147_483_648, 'abc', null])('refuses bid_amount %s, naming it', (amount) => {
    const error = thrown(() => parseOptimizationSpec(spec(amount), 'MARKETING'));
    expect(error.code).toBe(100);
    expect(error.message).toContain('optimization_spec.bid_amount');
  });

  it('refuses another strategy, another category and a non-object', () => {
    expect(
      thrown(() => parseOptimizationSpec(spec(5000, 'LOWEST_COST_WITHOUT_CAP'), 'MARKETING')).message,
    ).toContain('optimization_spec.bid_strategy');
    expect(thrown(() => parseOptimizationSpec(spec(5000), 'UTILITY')).message).toContain('UTILITY');
    expect(thrown(() => parseOptimizationSpec(5000, 'MARKETING')).message).toContain('optimization_spec');
  });
});

describe('refuseBidSpec', () => {
  it('refuses the old object name and lets everything else through', () => {
    expect(thrown(() => refuseBidSpec({ bid_spec: spec(5000) })).message).toContain('bid_spec');
    expect(() => refuseBidSpec({ optimization_spec: spec(5000) })).not.toThrow();
  });
});

describe('editedMaxPrice', () => {
  it('keeps it when left out, drops it when the template leaves MARKETING', () => {
    expect(editedMaxPrice(undefined, 5000, 'MARKETING')).toBe(5000);
    expect(editedMaxPrice(undefined, 5000, 'UTILITY')).toBeUndefined();
    expect(editedMaxPrice(undefined, undefined, 'MARKETING')).toBeUndefined();
  });

  it('changes one that exists; refuses adding one or removing one', () => {
    expect(editedMaxPrice(spec(4000), 5000, 'MARKETING')).toBe(4000);
    expect(thrown(() => editedMaxPrice(spec(4000), undefined, 'MARKETING')).message).toContain(
      "can't be added",
    );
    expect(thrown(() => editedMaxPrice(null, 5000, 'MARKETING')).message).toContain("can't be removed");
  });
});

describe('parseBidMultiplier', () => {
  it('defaults to 1 and takes any positive number', () => {
    expect(parseBidMultiplier(undefined)).toBe(1);
    expect(parseBidMultiplier({})).toBe(1);
    expect(parseBidMultiplier({ per_message_bid_multiplier: 1.5 })).toBe(1.5);
    expect(parseBidMultiplier({ per_message_bid_multiplier: '0.5' })).toBe(0.5);
  });

  it.each([0, -1, 'x', null])('refuses %s, naming the field', (multiplier) => {
    const error = thrown(() => parseBidMultiplier({ per_message_bid_multiplier: multiplier }));
    expect(error.code).toBe(100);
    expect(error.message).toContain('per_message_bid_multiplier');
  });
});

describe('maxPriceOfSend', () => {
  it('is 131061 through /messages and the scaled price per delivery through the MM API', () => {
    const template = { maxPriceBidAmount: 2000 };
    expect(thrown(() => maxPriceOfSend(template, 'messages', {})).code).toBe(131061);
    expect(maxPriceOfSend(template, 'marketing_messages', {})).toBeCloseTo(0.02);
    const scaled = maxPriceOfSend(template, 'marketing_messages', {
      bid_spec: { per_message_bid_multiplier: 1.5 },
    });
    expect(scaled).toBeCloseTo(0.03);
    expect(maxPriceOfSend({}, 'messages', {})).toBeUndefined();
  });
});

describe('maxPriceCharge', () => {
  it('charges the lower of the max price and the rate card, nothing without a max price', () => {
    // The UK's marketing rate in the sandbox's card: $0.0529.
    expect(maxPriceCharge({ recipient: '447700900123', category: 'marketing', maxPrice: 0.02 })).toBe(0.02);
    expect(maxPriceCharge({ recipient: '447700900123', category: 'marketing', maxPrice: 0.5 })).toBe(0.0529);
    expect(maxPriceCharge({ recipient: '447700900123', category: 'marketing' })).toBeUndefined();
  });
});
