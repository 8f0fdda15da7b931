import { describe, expect, it } from 'vitest';
import { PORTFOLIO_TIERS, isPortfolioTier, tierLimit } from './portfolio-tiers';
import { ReachWindows } from './reach-window';
import { isUsNumber } from './recipient-rules';

const HOUR = 3600 * 1000;
const T = 1_800_000_000_000;

describe('ReachWindows', () => {
  it('counts unique users per portfolio in a moving 24 hours; one already reached always fits', () => {
    const reach = new ReachWindows();
    reach.record('p1', 'a', T);
    reach.record('p1', 'b', T + HOUR);
    reach.record('p2', 'c', T);
    expect(reach.fits('p1', 'c', 2, T + 2 * HOUR)).toBe(false);
    expect(reach.fits('p1', 'a', 2, T + 2 * HOUR)).toBe(true);
    expect(reach.fits('p2', 'x', 2, T + 2 * HOUR)).toBe(true);
    // 24 h after the first reach, it has left the window.
    expect(reach.fits('p1', 'c', 2, T + 24 * HOUR)).toBe(true);
    expect(reach.window('p1', T + 24 * HOUR)).toEqual([{ to: 'b', reachedAt: T + HOUR }]);
  });

  it('keeps the latest reach of a user, so messaging them again keeps them in the window', () => {
    const reach = new ReachWindows();
    reach.record('p', 'a', T);
    reach.record('p', 'b', T + HOUR);
    reach.record('p', 'a', T + 2 * HOUR);
    expect(reach.window('p', T + 24.5 * HOUR).map((r) => r.to)).toEqual(['b', 'a']);
    expect(reach.window('p', T + 25.5 * HOUR).map((r) => r.to)).toEqual(['a']);
  });

  it('ages reaches and service windows of one portfolio only', () => {
    const reach = new ReachWindows();
    reach.record('p1', 'a', T);
    reach.record('p2', 'a', T);
    reach.openServiceWindow('p1', 'n1', 'u', T);
    expect(reach.inServiceWindow('p1', 'n1', 'u', T + HOUR)).toBe(true);
    expect(reach.inServiceWindow('p1', 'n2', 'u', T + HOUR)).toBe(false);
    reach.age('p1', 24 * HOUR);
    expect(reach.window('p1', T)).toEqual([]);
    expect(reach.inServiceWindow('p1', 'n1', 'u', T)).toBe(false);
    expect(reach.window('p2', T)).toHaveLength(1);
  });

  it('saves and restores in time order, dropping what left the window', () => {
    const reach = new ReachWindows();
    reach.record('p', 'old', T - 25 * HOUR);
    reach.record('p', 'b', T - HOUR);
    reach.record('p', 'a', T);
    reach.openServiceWindow('p', 'n', 'u', T);
    const saved = reach.save(T);
    expect(saved.reached).toEqual({
      p: [
        ['b', T - HOUR],
        ['a', T],
      ],
    });
    const again = new ReachWindows();
    again.restore({
      reached: {
        p: [
          ['a', T],
          ['b', T - HOUR],
        ],
      },
      inbound: saved.inbound,
    });
    expect(again.window('p', T + 23.5 * HOUR).map((r) => r.to)).toEqual(['a']);
    expect(again.inServiceWindow('p', 'n', 'u', T)).toBe(true);
    again.restore(undefined);
    expect(again.window('p', T)).toEqual([]);
  });

  it('never fits anyone under a limit of 0 and everyone under an unlimited tier', () => {
    const reach = new ReachWindows();
    expect(reach.fits('p', 'a', 0, T)).toBe(false);
    for (let i = 0; i < 1000; i += 1) reach.record('p', String(i), T);
    expect(reach.fits('p', 'new', PORTFOLIO_TIERS.TIER_UNLIMITED, T)).toBe(true);
  });
});

describe('portfolio tiers', () => {
  it("knows Meta's five tiers and their limits", () => {
    expect(
      ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'].map(tierLimit as never),
    ).toEqual([250, 2000, 10_000, 100_000, null]);
    expect(isPortfolioTier('TIER_1K')).toBe(false);
    expect(isPortfolioTier('toString')).toBe(false);
  });
});

describe('isUsNumber', () => {
  it('is a +1 number with a US area code, not a Canadian or Caribbean one', () => {
    expect(isUsNumber('16505551234')).toBe(true);
    expect(isUsNumber('17875551234')).toBe(true); // Puerto Rico has US area codes
    expect(isUsNumber('14165551234')).toBe(false); // Toronto
    expect(isUsNumber('18765551234')).toBe(false); // Jamaica
    expect(isUsNumber('447700900123')).toBe(false);
    expect(isUsNumber('1650555123')).toBe(false);
  });
});
