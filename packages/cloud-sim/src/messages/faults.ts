import { invalidParameter } from '../errors';

/** Faults injected into `POST /{phone-number-id}/messages`; `/__sandbox/reset` clears them. */
export interface FaultSettings {
  /** Share of sends answered HTTP 500 / 131000 (nothing accepted). */
  errorRate5xx: number;
  /** Share of sends answered 130429 at random, on top of the throughput limit. */
  rateLimitRate: number;
  /** The last `length` of every `everyN` sends answer 130429 (a burst); null for none. */
  rateLimitBurst: { everyN: number; length: number } | null;
  /** Added before every answer. */
  latencyMs: number;
  /** Share of marketing sends (outside a service window) accepted, then failed with 131049. */
  marketingLimitRate: number;
}

export type FaultVerdict = 'none' | 'server-error' | 'rate-limit';

const NONE: FaultSettings = {
  errorRate5xx: 0,
  rateLimitRate: 0,
  rateLimitBurst: null,
  latencyMs: 0,
  marketingLimitRate: 0,
};

const KEYS = {
  errorRate5xx: ['error_rate_5xx', 'errorRate5xx'],
  rateLimitRate: ['rate_limit_rate', 'rateLimitRate'],
  rateLimitBurst: ['rate_limit_burst', 'rateLimitBurst'],
  latencyMs: ['latency_ms', 'latencyMs'],
  marketingLimitRate: ['marketing_limit_rate', 'marketingLimitRate'],
} as const;

export const FAULT_KEYS: readonly string[] = Object.values(KEYS).flat();

function pick(params: Record<string, unknown>, names: readonly string[]): unknown {
  const name = names.find((n) => params[n] !== undefined);
  return name === undefined ? undefined : params[name];
}

function toNumber(value: unknown): number {
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : (value as number);
}

function share(value: unknown, name: string): number {
  const n = toNumber(value);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw invalidParameter(`${name} must be a number from 0 to 1`);
  }
  return n;
}

function burst(value: unknown): FaultSettings['rateLimitBurst'] {
  if (value === null || value === false) return null;
  const decoded = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  const shape = decoded as { every_n?: unknown; everyN?: unknown; length?: unknown } | null;
  const everyN = toNumber(shape?.every_n ?? shape?.everyN);
  const length = toNumber(shape?.length);
  if (!Number.isInteger(everyN) || !Number.isInteger(length) || everyN < 1 || length < 0 || length > everyN) {
    throw invalidParameter('rate_limit_burst must be {every_n, length} with 0 <= length <= every_n, or null');
  }
  return length === 0 ? null : { everyN, length };
}

/** Checks every given fault setting; answers only the ones given, so a bad call changes nothing. */
export function parseFaultPatch(params: Record<string, unknown>): Partial<FaultSettings> {
  const patch: Partial<FaultSettings> = {};
  const rate5xx = pick(params, KEYS.errorRate5xx);
  if (rate5xx !== undefined) patch.errorRate5xx = share(rate5xx, 'error_rate_5xx');
  const rate = pick(params, KEYS.rateLimitRate);
  if (rate !== undefined) patch.rateLimitRate = share(rate, 'rate_limit_rate');
  const rateBurst = pick(params, KEYS.rateLimitBurst);
  if (rateBurst !== undefined) {
    try {
      patch.rateLimitBurst = burst(rateBurst);
    } catch {
      throw invalidParameter(
        'rate_limit_burst must be {every_n, length} with 0 <= length <= every_n, or null',
      );
    }
  }
  const marketing = pick(params, KEYS.marketingLimitRate);
  if (marketing !== undefined) patch.marketingLimitRate = share(marketing, 'marketing_limit_rate');
  const latency = pick(params, KEYS.latencyMs);
  if (latency !== undefined) {
    const n = toNumber(latency);
    if (!Number.isInteger(n) || n < 0 || n > 60_000) {
      throw invalidParameter('latency_ms must be a whole number from 0 to 60000');
    }
    patch.latencyMs = n;
  }
  return patch;
}

export class Faults {
  private settings: FaultSettings = { ...NONE };
  private sends = 0;
  private readonly sleepers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

  constructor(private readonly random: () => number = Math.random) {}

  apply(patch: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...patch };
    if (patch.rateLimitBurst !== undefined) this.sends = 0;
  }

  reset(): void {
    this.settings = { ...NONE };
    this.sends = 0;
    this.wakeAll();
  }

  /** Decides one send's fate; counts it towards the burst cycle. */
  decide(): FaultVerdict {
    const { errorRate5xx, rateLimitRate, rateLimitBurst } = this.settings;
    const position = this.sends;
    this.sends += 1;
    if (errorRate5xx > 0 && this.random() < errorRate5xx) return 'server-error';
    if (rateLimitBurst && position % rateLimitBurst.everyN >= rateLimitBurst.everyN - rateLimitBurst.length) {
      return 'rate-limit';
    }
    if (rateLimitRate > 0 && this.random() < rateLimitRate) return 'rate-limit';
    return 'none';
  }

  /** Whether this marketing send meets the per-user marketing limit (131049), by the configured share. */
  marketingLimited(): boolean {
    const rate = this.settings.marketingLimitRate;
    return rate > 0 && this.random() < rate;
  }

  /** Waits the configured latency; `wakeAll` (close, reset) ends every wait at once. */
  delay(): Promise<void> | undefined {
    const ms = this.settings.latencyMs;
    if (ms <= 0) return undefined;
    return new Promise<void>((resolve) => {
      const sleeper = {
        timer: setTimeout(() => {
          this.sleepers.delete(sleeper);
          resolve();
        }, ms),
        done: resolve,
      };
      sleeper.timer.unref();
      this.sleepers.add(sleeper);
    });
  }

  wakeAll(): void {
    for (const sleeper of this.sleepers) {
      clearTimeout(sleeper.timer);
      sleeper.done();
    }
    this.sleepers.clear();
  }

  view() {
    const { errorRate5xx, rateLimitRate, rateLimitBurst, latencyMs, marketingLimitRate } = this.settings;
    return {
      error_rate_5xx: errorRate5xx,
      rate_limit_rate: rateLimitRate,
      rate_limit_burst: rateLimitBurst && { every_n: rateLimitBurst.everyN, length: rateLimitBurst.length },
      latency_ms: latencyMs,
      marketing_limit_rate: marketingLimitRate,
    };
  }
}
