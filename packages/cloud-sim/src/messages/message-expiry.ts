import { LONGEST_TIMER_MS } from '../webhooks/retry-policy';
import type { AcceptedMessage } from './accepted-log';
import { MinHeap } from './min-heap';
import type { PlannedStatus } from './status-plan';
import type { MessageInfo } from './status-payload';
import type { TtlClock } from './ttl-clock';

interface WatchedMessage {
  message: MessageInfo;
  /** Acceptance + TTL, Unix ms on the TTL clock. */
  expiresAt: number;
  /** When its last planned status goes out: the `failed` one never overtakes its `sent`. */
  notBefore: number;
  /** Its accepted-log record, marked when it expires; null after a restart (the log is not kept). */
  record: AcceptedMessage | null;
  seq: number;
}

/** A message still to expire, as the state file keeps it. */
export interface SavedExpiry {
  message: MessageInfo;
  expiresAt: number;
  notBefore: number;
}

/** The watch as the state file keeps it (see persistence/): the clock's offset and what is still to expire. */
export interface SavedExpiries {
  clockOffsetSeconds: number;
  pending: SavedExpiry[];
}

/** Queues a message's statuses (StatusEmitter.schedule). */
export type StatusScheduler = (message: MessageInfo, plan: PlannedStatus[]) => void;

/**
 * Meta retries an undelivered message for its time-to-live, then drops it. The sandbox watches every accepted
 * message whose plan leaves it at `sent` (as to a phone that is off) in a heap by expiry time, so a check costs
 * the expired ones only, never a pass over the log: when the TTL clock passes acceptance + TTL, the message gets
 * one `failed` status (timestamp = acceptance + TTL) and its log record is marked expired. One timer for the
 * earliest expiry, none while nothing is watched; moving the clock checks at once.
 */
export class MessageExpiry {
  private readonly heap = new MinHeap<WatchedMessage>(
    (a, b) => a.expiresAt < b.expiresAt || (a.expiresAt === b.expiresAt && a.seq < b.seq),
  );
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  /** When (real Unix ms) the timer fires. */
  private armedFor = Number.POSITIVE_INFINITY;
  /** Set on close: what is watched is kept for the state file, nothing more expires. */
  private halted = false;

  constructor(
    readonly clock: TtlClock,
    private readonly schedule: StatusScheduler,
    /** Told when messages expired (the state file's list of watched ones shrank). */
    private readonly onExpired: () => void = () => {},
  ) {}

  get pending(): number {
    return this.heap.size;
  }

  /**
   * Watches a message just accepted. A plan with `delivered` (never expires) or `failed` (already fails)
   * leaves it alone.
   */
  watch(message: MessageInfo, record: AcceptedMessage, plan: PlannedStatus[]): void {
    if (plan.some((p) => p.status !== 'sent')) return;
    const notBefore = plan.reduce((latest, p) => Math.max(latest, p.due), 0);
    this.push(message, record.acceptedAt + record.ttlSeconds * 1000, notBefore, record);
    this.arm();
  }

  /** Moves the TTL clock forward, then expires what is due by it; answers how many expired. */
  advance(seconds: number): number {
    this.clock.advance(seconds);
    const expired = this.expireDue();
    // The clock moved: the timer's time was computed on the old one.
    this.clearTimer();
    this.arm();
    return expired;
  }

  /** Drops every message whose TTL has passed on the TTL clock; answers how many. */
  expireDue(): number {
    if (this.halted) return 0;
    const now = this.clock.now();
    const realNow = Date.now();
    let expired = 0;
    for (let next = this.heap.peek(); next && next.expiresAt <= now; next = this.heap.peek()) {
      this.heap.pop();
      expired += 1;
      if (next.record) next.record.expiredAt = next.expiresAt;
      this.schedule({ ...next.message, failure: 'expired' }, [
        {
          due: Math.max(realNow, next.notBefore),
          status: 'failed',
          timestamp: Math.floor(next.expiresAt / 1000),
        },
      ]);
    }
    if (expired > 0) this.onExpired();
    return expired;
  }

  /** Forgets every watched message and goes back to real time (reset). */
  clear(): void {
    this.clearTimer();
    this.heap.clear();
    this.clock.setOffsetSeconds(0);
  }

  /** Nothing more expires, but what is watched stays, so a closing sandbox can still write it down. */
  halt(): void {
    this.halted = true;
    this.clearTimer();
  }

  save(): SavedExpiries {
    return {
      clockOffsetSeconds: this.clock.offsetSeconds,
      pending: this.heap
        .toArray()
        .map(({ message, expiresAt, notBefore }) => ({ message, expiresAt, notBefore })),
    };
  }

  /** Watches again what a previous run left (absent in older state files); those already due expire at once. */
  restore(saved: SavedExpiries | undefined): void {
    this.clear();
    if (!saved) return;
    this.clock.setOffsetSeconds(saved.clockOffsetSeconds);
    for (const { message, expiresAt, notBefore } of saved.pending) {
      this.push(message, expiresAt, notBefore, null);
    }
    this.arm();
  }

  private push(message: MessageInfo, expiresAt: number, notBefore: number, record: AcceptedMessage | null) {
    this.seq += 1;
    this.heap.push({ message, expiresAt, notBefore, record, seq: this.seq });
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private arm(): void {
    const first = this.heap.peek();
    if (!first || this.halted) return;
    // Capped at setTimeout's ceiling: a 30-day TTL wakes once on the way and arms again.
    const wait = Math.min(Math.max(0, first.expiresAt - this.clock.now()), LONGEST_TIMER_MS);
    const target = Date.now() + wait;
    if (this.timer && target >= this.armedFor) return;
    this.clearTimer();
    this.armedFor = target;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.armedFor = Number.POSITIVE_INFINITY;
      this.expireDue();
      this.arm();
    }, wait);
    this.timer.unref();
  }
}
