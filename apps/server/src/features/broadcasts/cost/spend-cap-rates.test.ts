import { describe, expect, it } from 'vitest';
import { MARKETS } from '../../pricing/markets';
import { loadRateCard, rateOn } from '../../pricing/rate-card';
import { messageCostMicros } from './spend-cap-rates';

const card = loadRateCard();
const day = '2026-11-26';
const micros = (usd: number) => Math.round(usd * 1e6);

describe('messageCostMicros (decision 052)', () => {
  it('counts a message at its market’s rate for the template’s category on the day', () => {
    expect(messageCostMicros(card, '+14155552000', 'MARKETING', day)).toBe(
      micros(rateOn(card, 'North America', 'marketing', day)!),
    );
    expect(messageCostMicros(card, '+919876543000', 'UTILITY', day)).toBe(
      micros(rateOn(card, 'India', 'utility', day)!),
    );
  });

  it('counts an authentication message at the dearer of its two rates, and a BSUID at the dearest market', () => {
    const india = Math.max(
      rateOn(card, 'India', 'authentication', day)!,
      rateOn(card, 'India', 'authentication_international', day)!,
    );
    expect(messageCostMicros(card, '+919876543000', 'AUTHENTICATION', day)).toBe(micros(india));
    const dearest = Math.max(...MARKETS.map((m) => rateOn(card, m, 'marketing', day)!));
    expect(messageCostMicros(card, 'US.13491208655302741918', 'MARKETING', day)).toBe(micros(dearest));
    // A day before the card has any rate: the dearest rate it has, never nothing.
    expect(messageCostMicros(card, '+14155552000', 'MARKETING', '2020-01-01')).toBeGreaterThanOrEqual(
      micros(dearest),
    );
  });
});
