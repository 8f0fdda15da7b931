import { TokenBuckets } from './token-bucket';

export interface PairRateSettings {
  /** Messages allowed at once to one recipient from one number (default 1). */
  burst: number;
  /** Each allowance comes back after this long (default 6000 ms); 0 turns the limit off. */
  windowMs: number;
}

export const DEFAULT_PAIR_RATE: PairRateSettings = { burst: 1, windowMs: 6000 };

/**
 * Meta's (business number, consumer) pair rate: about one message every 6 s to the same person. The sandbox
 * allows `burst` messages at once, then one per `windowMs`; refused messages do not extend the lockout.
 */
export class PairRateLimiter {
  private readonly buckets = new TokenBuckets();

  take(phoneNumberId: string, recipient: string, settings: PairRateSettings, now = Date.now()): boolean {
    if (settings.windowMs <= 0) return true;
    return this.buckets.take(`${phoneNumberId}|${recipient}`, 1000 / settings.windowMs, settings.burst, now);
  }

  clear(): void {
    this.buckets.clear();
  }

  get size(): number {
    return this.buckets.size;
  }
}
