const DAY_MS = 24 * 60 * 60 * 1000;

/** The reach windows as the state file keeps them: per portfolio, [recipient, reached at (Unix ms)]. */
export interface SavedReach {
  reached: Record<string, Array<[string, number]>>;
  /** Per portfolio, [`<phone-number-id>|<user digits>`, last inbound message (Unix ms)]. */
  inbound: Record<string, Array<[string, number]>>;
}

/**
 * Times by key in a Map kept in time order (a key touched again moves to the end), so dropping what left the
 * 24-hour window is a walk from the front: O(1) per send, amortised, at any number of recipients.
 */
class RollingTimes {
  readonly times = new Map<string, number>();

  touch(key: string, at: number): void {
    this.times.delete(key);
    this.times.set(key, at);
  }

  has(key: string, now: number): boolean {
    this.prune(now);
    return this.times.has(key);
  }

  size(now: number): number {
    this.prune(now);
    return this.times.size;
  }

  /** Every time moves `ms` into the past (the order stays), as if that long had passed. */
  age(ms: number): void {
    for (const [key, at] of this.times) this.times.set(key, at - ms);
  }

  prune(now: number): void {
    for (const [key, at] of this.times) {
      if (at > now - DAY_MS) return;
      this.times.delete(key);
    }
  }
}

/**
 * Per business portfolio: the unique users its template sends reached in the moving 24 hours (what the
 * messaging limit counts), and the customer service windows its users opened by writing in (inside one, a
 * send does not count). Recipients are phone digits.
 */
export class ReachWindows {
  private readonly reached = new Map<string, RollingTimes>();
  private readonly inbound = new Map<string, RollingTimes>();

  private of(map: Map<string, RollingTimes>, portfolioId: string): RollingTimes {
    let times = map.get(portfolioId);
    if (!times) {
      times = new RollingTimes();
      map.set(portfolioId, times);
    }
    return times;
  }

  /** A user wrote to one of the portfolio's numbers: a customer service window with that number opens. */
  openServiceWindow(portfolioId: string, phoneNumberId: string, user: string, at: number): void {
    this.of(this.inbound, portfolioId).touch(`${phoneNumberId}|${user}`, at);
  }

  inServiceWindow(portfolioId: string, phoneNumberId: string, user: string, now: number): boolean {
    return this.inbound.get(portfolioId)?.has(`${phoneNumberId}|${user}`, now) ?? false;
  }

  /** Whether a send to `user` fits under `limit`: someone already reached in the window always does. */
  fits(portfolioId: string, user: string, limit: number, now: number): boolean {
    const times = this.reached.get(portfolioId);
    if (!times) return limit >= 1;
    return times.has(user, now) || times.size(now) < limit;
  }

  record(portfolioId: string, user: string, at: number): void {
    this.of(this.reached, portfolioId).touch(user, at);
  }

  /** The reaches still in the window, oldest first. */
  window(portfolioId: string, now: number): Array<{ to: string; reachedAt: number }> {
    const times = this.reached.get(portfolioId);
    if (!times) return [];
    times.prune(now);
    return [...times.times].map(([to, reachedAt]) => ({ to, reachedAt }));
  }

  /** Tests "wait": every reach and service window of the portfolio is `ms` older. */
  age(portfolioId: string, ms: number): void {
    this.reached.get(portfolioId)?.age(ms);
    this.inbound.get(portfolioId)?.age(ms);
  }

  clear(): void {
    this.reached.clear();
    this.inbound.clear();
  }

  save(now = Date.now()): SavedReach {
    const dump = (map: Map<string, RollingTimes>) => {
      const out: Record<string, Array<[string, number]>> = {};
      for (const [portfolioId, times] of map) {
        times.prune(now);
        if (times.times.size > 0) out[portfolioId] = [...times.times];
      }
      return out;
    };
    return { reached: dump(this.reached), inbound: dump(this.inbound) };
  }

  restore(saved: SavedReach | undefined): void {
    this.clear();
    const load = (map: Map<string, RollingTimes>, from: SavedReach['reached'] | undefined) => {
      for (const [portfolioId, entries] of Object.entries(from ?? {})) {
        const times = this.of(map, portfolioId);
        for (const [key, at] of [...entries].sort((a, b) => a[1] - b[1])) times.touch(key, at);
      }
    };
    load(this.reached, saved?.reached);
    load(this.inbound, saved?.inbound);
  }
}
