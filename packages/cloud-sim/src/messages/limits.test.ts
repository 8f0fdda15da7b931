import { describe, expect, it } from 'vitest';
import { Faults, parseFaultPatch } from './faults';
import { PairRateLimiter } from './pair-rate';
import { ThroughputLimiter, TokenBuckets } from './token-bucket';

describe('TokenBuckets', () => {
  it('allows a burst of `burst`, then one per interval; refusals cost nothing', () => {
    const buckets = new TokenBuckets();
    const t = 1_000_000;
    const results = Array.from({ length: 8 }, () => buckets.take('k', 5, 5, t));
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(buckets.take('k', 5, 5, t + 199)).toBe(false);
    expect(buckets.take('k', 5, 5, t + 200)).toBe(true);
    expect(buckets.take('k', 5, 5, t + 1200)).toBe(true);
    expect([1, 2, 3, 4, 5].map(() => buckets.take('k', 5, 5, t + 1200)).filter(Boolean)).toHaveLength(4);
  });

  it('forgets full buckets when it grows past its bound', () => {
    const buckets = new TokenBuckets(10);
    for (let i = 0; i < 11; i++) buckets.take(`k${i}`, 1, 1, 0);
    expect(buckets.size).toBe(11);
    buckets.take('late', 1, 1, 5000);
    expect(buckets.size).toBe(1);
  });
});

describe('ThroughputLimiter', () => {
  it('runs at 80 mps STANDARD, 1,000 HIGH, or an explicit rate; a second of it at once', () => {
    const limiter = new ThroughputLimiter();
    const burst = (id: string, level: 'STANDARD' | 'HIGH') =>
      Array.from({ length: 1200 }, () => limiter.take(id, level, 0)).filter(Boolean).length;
    expect(burst('a', 'STANDARD')).toBe(80);
    expect(burst('b', 'HIGH')).toBe(1000);
    limiter.setMps('a', 5);
    expect(limiter.mps('a', 'STANDARD')).toBe(5);
    expect(burst('a', 'STANDARD')).toBe(5);
    limiter.setMps('a', null);
    expect(limiter.mps('a', 'STANDARD')).toBe(80);
  });
});

describe('PairRateLimiter', () => {
  it('allows `burst` messages to one recipient, then one per window; other recipients are free', () => {
    const pair = new PairRateLimiter();
    const settings = { burst: 1, windowMs: 6000 };
    expect(pair.take('p', '155', settings, 0)).toBe(true);
    expect(pair.take('p', '155', settings, 5999)).toBe(false);
    expect(pair.take('p', '156', settings, 1)).toBe(true);
    expect(pair.take('q', '155', settings, 1)).toBe(true);
    expect(pair.take('p', '155', settings, 6000)).toBe(true);
    expect(pair.take('p', '155', { burst: 1, windowMs: 0 }, 6001)).toBe(true);
    const two = { burst: 2, windowMs: 6000 };
    expect([0, 1, 2].map(() => pair.take('p', '157', two, 0))).toEqual([true, true, false]);
  });
});

describe('Faults', () => {
  it('answers 130429 for the last `length` of every `every_n` sends', () => {
    const faults = new Faults(() => 0.99);
    faults.apply(parseFaultPatch({ rate_limit_burst: { every_n: 5, length: 2 } }));
    expect(Array.from({ length: 10 }, () => faults.decide())).toEqual([
      'none',
      'none',
      'none',
      'rate-limit',
      'rate-limit',
      'none',
      'none',
      'none',
      'rate-limit',
      'rate-limit',
    ]);
  });

  it('draws 5xx and random 130429 by their shares, and resets to none', () => {
    const draws = [0.01, 0.5, 0.5, 0.5, 0.05];
    const faults = new Faults(() => draws.shift() ?? 0.99);
    faults.apply(parseFaultPatch({ error_rate_5xx: 0.02, rate_limit_rate: '0.1' }));
    expect([faults.decide(), faults.decide(), faults.decide()]).toEqual([
      'server-error',
      'none',
      'rate-limit',
    ]);
    faults.reset();
    expect(faults.view()).toEqual({
      error_rate_5xx: 0,
      rate_limit_rate: 0,
      rate_limit_burst: null,
      latency_ms: 0,
      marketing_limit_rate: 0,
    });
  });

  it('refuses bad settings', () => {
    expect(() => parseFaultPatch({ error_rate_5xx: 2 })).toThrow(/error_rate_5xx/);
    expect(() => parseFaultPatch({ rate_limit_burst: { every_n: 2, length: 3 } })).toThrow(
      /rate_limit_burst/,
    );
    expect(() => parseFaultPatch({ latency_ms: -5 })).toThrow(/latency_ms/);
  });

  it('ends every latency wait on wakeAll', async () => {
    const faults = new Faults();
    faults.apply({ latencyMs: 60_000 });
    const started = Date.now();
    const wait = faults.delay();
    faults.wakeAll();
    await wait;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
