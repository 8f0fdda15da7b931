/**
 * The sandbox's notion of now for message time-to-live only: real time plus an offset tests move forward
 * (`POST /__sandbox/clock`), since real TTLs run 12 hours to 30 days. Nothing else reads it: messaging-limit
 * windows, reviews, statuses and webhook retries keep real time (portfolios have their own `advance`).
 */
export class TtlClock {
  private offsetMs = 0;

  /** Unix ms, shifted. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  /** Back to real time (reset), or to a restarted sandbox's saved offset. */
  setOffsetSeconds(seconds: number): void {
    this.offsetMs = seconds * 1000;
  }
}
