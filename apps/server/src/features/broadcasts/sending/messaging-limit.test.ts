import { describe, expect, it } from 'vitest';
import { parseTier } from './messaging-limit';

describe('parseTier', () => {
  it('reads TIER_* strings, numbers and -1 (unlimited), and nothing else', () => {
    expect(parseTier('TIER_2K')).toEqual({ tier: 'TIER_2K', limit: 2_000 });
    expect(parseTier('TIER_UNLIMITED')).toEqual({ tier: 'TIER_UNLIMITED', limit: null });
    expect(parseTier(10_000)).toEqual({ tier: 'TIER_10K', limit: 10_000 });
    expect(parseTier('250')).toEqual({ tier: 'TIER_250', limit: 250 });
    expect(parseTier(-1)).toEqual({ tier: 'TIER_UNLIMITED', limit: null });
    expect(parseTier('TIER_BOGUS')).toBeNull();
    expect(parseTier(null)).toBeNull();
  });
});
