import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff';

describe('backoffMs', () => {
  it('doubles from the first wait after each failure and stops at the maximum', () => {
    const bounds = { first: 1_000, max: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((failures) => backoffMs(failures, bounds))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('waits the first wait when nothing has failed yet', () => {
    expect(backoffMs(0, { first: 100, max: 1_000 })).toBe(100);
  });
});
