import { describe, expect, it } from 'vitest';
import { validateTemplatePayload } from './validate';
import {
  formatMaxPrice,
  MAX_PRICE_MESSAGES,
  maxPriceDollars,
  maxPriceError,
  parseMaxPrice,
} from './max-price';

const template = (category: string, bid: unknown) => ({
  name: 'spring_sale',
  language: 'en_US',
  category,
  components: [{ type: 'BODY', text: 'Spring prices are here.' }],
  max_price_bid_amount: bid,
});

describe('a marketing template maximum price', () => {
  it("turns dollars per delivered message into Meta's cents per 1,000 deliveries, without float noise", () => {
    expect(parseMaxPrice('0.025')).toEqual({ ok: true, value: 2_500 });
    expect(parseMaxPrice('$0.0625')).toEqual({ ok: true, value: 6_250 });
    expect(parseMaxPrice('0.07')).toEqual({ ok: true, value: 7_000 });
    expect(parseMaxPrice('1')).toEqual({ ok: true, value: 100_000 });
    expect(parseMaxPrice('.00001')).toEqual({ ok: true, value: 1 });
    expect(parseMaxPrice('  ')).toEqual({ ok: true, value: null });
    expect(maxPriceDollars(2_500)).toBe(0.025);
  });

  it('refuses what is not a price Meta can take, saying why', () => {
    expect(parseMaxPrice('abc')).toEqual({ ok: false, message: MAX_PRICE_MESSAGES.amount });
    expect(parseMaxPrice('-0.02')).toEqual({ ok: false, message: MAX_PRICE_MESSAGES.amount });
    expect(parseMaxPrice('0')).toEqual({ ok: false, message: MAX_PRICE_MESSAGES.positive });
    expect(parseMaxPrice('0.000001')).toEqual({ ok: false, message: MAX_PRICE_MESSAGES.decimals });
    expect(parseMaxPrice('30000')).toEqual({ ok: false, message: MAX_PRICE_MESSAGES.tooHigh });
  });

  it('shows the price as dollars with the decimals it has', () => {
    expect(formatMaxPrice(2_500)).toBe('$0.025');
    expect(formatMaxPrice(7_000)).toBe('$0.07');
    expect(formatMaxPrice(1)).toBe('$0.00001');
  });

  it('is for marketing templates only, in whole cents per 1,000 deliveries, named in the payload check', () => {
    expect(maxPriceError(2_500, 'MARKETING')).toBeNull();
    expect(maxPriceError(null, 'UTILITY')).toBeNull();
    expect(maxPriceError(2_500, 'UTILITY')).toBe(MAX_PRICE_MESSAGES.marketingOnly);
    expect(maxPriceError(0, 'MARKETING')).toBe(MAX_PRICE_MESSAGES.bidAmount);
    expect(maxPriceError(2.5, 'MARKETING')).toBe(MAX_PRICE_MESSAGES.bidAmount);
    expect(maxPriceError('2500', 'MARKETING')).toBe(MAX_PRICE_MESSAGES.bidAmount);
    expect(maxPriceError(2_147_483_648, 'MARKETING')).toBe(MAX_PRICE_MESSAGES.bidAmount);
    expect(validateTemplatePayload(template('MARKETING', 2_500))).toEqual([]);
    expect(validateTemplatePayload(template('AUTHENTICATION', 2_500))).toContainEqual({
      field: 'max_price_bid_amount',
      message: MAX_PRICE_MESSAGES.marketingOnly,
    });
  });
});
