/**
 * A token bucket in its GCRA form: one number per key (the theoretical arrival time of the next
 * message), so a bucket costs a map entry. `rate` tokens a second, room for `burst` at once; a refused
 * take costs nothing.
 */
export class TokenBuckets {
  private readonly next = new Map<string, number>();
  private lastSweep = 0;

  /** Forgotten entries are full buckets; `sweepAbove` bounds the map for many distinct keys. */
  constructor(private readonly sweepAbove = 50_000) {}

  take(key: string, rate: number, burst: number, now: number): boolean {
    if (rate <= 0) return false;
    const interval = 1000 / rate;
    const tolerance = (Math.max(1, burst) - 1) * interval;
    const tat = Math.max(this.next.get(key) ?? now, now);
    if (tat - now > tolerance) return false;
    this.next.set(key, tat + interval);
    if (this.next.size > this.sweepAbove && now - this.lastSweep > 1000) this.sweep(now);
    return true;
  }

  /** Refills a key's bucket completely. */
  forget(key: string): void {
    this.next.delete(key);
  }

  clear(): void {
    this.next.clear();
  }

  get size(): number {
    return this.next.size;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, tat] of this.next) if (tat <= now) this.next.delete(key);
  }
}

export const THROUGHPUT_MPS = { STANDARD: 80, HIGH: 1000, NOT_APPLICABLE: 80 } as const;
export type ThroughputLevel = keyof typeof THROUGHPUT_MPS;

/**
 * Per phone number: messages a second at its throughput level (or an explicit rate set through the control
 * API), with a bucket holding one second of that rate.
 */
export class ThroughputLimiter {
  private readonly buckets = new TokenBuckets(Number.POSITIVE_INFINITY);
  private readonly overrides = new Map<string, number>();

  mps(phoneNumberId: string, level: ThroughputLevel): number {
    return this.overrides.get(phoneNumberId) ?? THROUGHPUT_MPS[level];
  }

  take(phoneNumberId: string, level: ThroughputLevel, now = Date.now()): boolean {
    const mps = this.mps(phoneNumberId, level);
    return this.buckets.take(phoneNumberId, mps, Math.max(1, Math.floor(mps)), now);
  }

  /** An explicit rate, or null for the level's; either way the bucket starts full. */
  setMps(phoneNumberId: string, mps: number | null): void {
    if (mps === null) this.overrides.delete(phoneNumberId);
    else this.overrides.set(phoneNumberId, mps);
    this.buckets.forget(phoneNumberId);
  }

  refill(phoneNumberId: string): void {
    this.buckets.forget(phoneNumberId);
  }

  clear(): void {
    this.buckets.clear();
    this.overrides.clear();
  }
}
