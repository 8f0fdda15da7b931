import { describe, expect, it } from 'vitest';
import { META_WEBHOOK_MAX_AGE_MS, nextAttempt, retryWait } from './retry-policy';
import type { WebhookRetryPolicy } from './retry-policy';

const HOUR = 3_600_000;
const meta: WebhookRetryPolicy = {
  retryBaseMs: 500,
  retryMaxWaitMs: HOUR,
  retryMaxAgeMs: META_WEBHOOK_MAX_AGE_MS,
  maxAttempts: null,
};

describe('webhook retry policy', () => {
  it('doubles each wait from the base up to the max wait', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryWait(meta, n))).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(retryWait(meta, 14)).toBe(HOUR);
    expect(retryWait(meta, 500)).toBe(HOUR);
  });

  it("keeps retrying for 7 days, Meta's bound, then gives up", () => {
    const createdAt = 0;
    let now = createdAt;
    let attemptsMade = 1;
    for (;;) {
      const next = nextAttempt(meta, { attemptsMade, createdAt }, now);
      if (next.giveUp) break;
      now = next.at;
      attemptsMade += 1;
    }
    // Far more than the 5 attempts of old, the last within 7 days and less than a max wait before its end.
    expect(attemptsMade).toBeGreaterThan(150);
    expect(now).toBeLessThanOrEqual(META_WEBHOOK_MAX_AGE_MS);
    expect(META_WEBHOOK_MAX_AGE_MS - now).toBeLessThan(HOUR);
  });

  it('gives up at an explicit cap on attempts when one is set', () => {
    const capped = { ...meta, maxAttempts: 2 };
    expect(nextAttempt(capped, { attemptsMade: 1, createdAt: 0 }, 0)).toEqual({ giveUp: false, at: 500 });
    expect(nextAttempt(capped, { attemptsMade: 2, createdAt: 0 }, 500).giveUp).toBe(true);
  });
});
