/**
 * Paces sends at `ratePerSecond`. The burst is a tenth of a second of rate, smaller than Meta's own bucket,
 * so a sender that starts full never overshoots the number's cap.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private capacity: number;

  constructor(
    private ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, ratePerSecond / 10);
    this.tokens = this.capacity;
    this.last = this.now();
  }

  get rate(): number {
    return this.ratePerSecond;
  }

  /** Paces at a new rate from now on (the number's throughput changed); tokens saved so far are kept. */
  setRate(ratePerSecond: number): void {
    this.tokens = Math.min(
      this.tokens + ((this.now() - this.last) * this.ratePerSecond) / 1000,
      this.capacity,
    );
    this.last = this.now();
    this.ratePerSecond = ratePerSecond;
    this.capacity = Math.max(1, ratePerSecond / 10);
    this.tokens = Math.min(this.tokens, this.capacity);
  }

  /** Resolves when a send may start. */
  async take(): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.ratePerSecond) / 1000);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(1, ((1 - this.tokens) * 1000) / this.ratePerSecond)),
      );
    }
  }
}
