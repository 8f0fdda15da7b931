import { describe, expect, it } from 'vitest';
import {
  isSpendCapPause,
  parseSpendCap,
  SPEND_CAP_MESSAGES,
  spendCapReason,
  SpendCapSchema,
} from './spend-cap';

describe('spend cap (decision 052)', () => {
  it('takes a positive amount with at most 2 decimals, and says which rule another breaks', () => {
    expect(SpendCapSchema.safeParse(12.5).success).toBe(true);
    // 0.1 + 0.2 style float noise is not a third decimal.
    expect(SpendCapSchema.safeParse(1.15).success).toBe(true);
    expect(SpendCapSchema.safeParse(0).error?.issues[0]?.message).toBe(SPEND_CAP_MESSAGES.positive);
    expect(SpendCapSchema.safeParse(12.345).error?.issues[0]?.message).toBe(SPEND_CAP_MESSAGES.decimals);
    expect(SpendCapSchema.safeParse('12').error?.issues[0]?.message).toBe(SPEND_CAP_MESSAGES.amount);
  });

  it('reads the typed field: empty is no cap, a $ and thousands commas are allowed, words are not', () => {
    expect(parseSpendCap('  ')).toEqual({ ok: true, value: null });
    expect(parseSpendCap('$1,250.50')).toEqual({ ok: true, value: 1250.5 });
    expect(parseSpendCap('.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseSpendCap('ten')).toEqual({ ok: false, message: SPEND_CAP_MESSAGES.amount });
    expect(parseSpendCap('1e3')).toEqual({ ok: false, message: SPEND_CAP_MESSAGES.amount });
    expect(parseSpendCap('0.001')).toEqual({ ok: false, message: SPEND_CAP_MESSAGES.decimals });
  });

  it('writes the history’s reason and knows it again', () => {
    const reason = spendCapReason(12.3412, 12.5);
    expect(reason).toBe('Spend cap reached: $12.34 of $12.50');
    expect(isSpendCapPause(reason)).toBe(true);
    expect(isSpendCapPause('WhatsApp paused the template x')).toBe(false);
    expect(isSpendCapPause(null)).toBe(false);
  });
});
