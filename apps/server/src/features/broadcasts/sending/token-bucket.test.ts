import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenBucket } from './token-bucket';

afterEach(() => {
  vi.useRealTimers();
});

describe('TokenBucket', () => {
  it('paces at its rate, and at a new rate from the moment it is set', async () => {
    vi.useFakeTimers();
    const bucket = new TokenBucket(80, () => Date.now());
    let taken = 0;
    let running = true;
    const drain = (async () => {
      while (running) {
        await bucket.take();
        taken += 1;
      }
    })();
    // The first second: the burst of a tenth of a second (8) plus 80.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(taken).toBeGreaterThanOrEqual(80);
    expect(taken).toBeLessThanOrEqual(89);
    taken = 0;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(taken).toBeGreaterThanOrEqual(78);
    expect(taken).toBeLessThanOrEqual(82);

    bucket.setRate(1_000);
    expect(bucket.rate).toBe(1_000);
    taken = 0;
    await vi.advanceTimersByTimeAsync(1_000);
    // A timer's millisecond grain: at least most of 1,000 a second, never more than the rate and its burst.
    expect(taken).toBeGreaterThanOrEqual(500);
    expect(taken).toBeLessThanOrEqual(1_100);
    running = false;
    await vi.advanceTimersByTimeAsync(10);
    await drain;
  });
});
