import { MinHeap } from './min-heap';
import type { PlannedStatus, StatusName } from './status-plan';
import { statusesPayload } from './status-payload';
import type { MessageInfo, StatusEvent } from './status-payload';

interface QueuedStatus extends StatusEvent {
  due: number;
  seq: number;
}

/** A queued status as the state file keeps it: [message index, status, timestamp, due, seq]. */
export type SavedStatus = [number, StatusName, number, number, number];

/** The status queue as the state file keeps it (see persistence/). */
export interface SavedStatuses {
  messages: MessageInfo[];
  queue: SavedStatus[];
}

export interface BatchSettings {
  /** Statuses in one webhook POST at most. */
  batchSize: number;
  /** Statuses due within this window go out together. */
  windowMs: number;
}

/** More statuses of one WABA than this due in one tick are load: they go out batched. */
export const UNDER_LOAD = 10;

/** Posts one payload for a WABA (the webhook sender signs, sends and retries it). */
export type PayloadSink = (wabaId: string, payload: unknown) => void;

/**
 * Holds planned statuses until they are due, then posts them: one per webhook, or under load (more than
 * UNDER_LOAD of one WABA due together) batched, up to `batchSize` per webhook with a change per phone number. One timer for the whole queue, none while it is empty.
 */
export class StatusEmitter {
  private readonly queue = new MinHeap<QueuedStatus>(
    (a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq),
  );
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private armedFor = Number.POSITIVE_INFINITY;
  private lastTick = 0;
  private counts = { statuses: 0, posts: 0 };
  /** Set on close: the queue is kept (for the state file) but nothing more is posted. */
  private halted = false;

  constructor(
    private readonly sink: PayloadSink,
    private readonly settings: () => BatchSettings,
    /** Told of every status as it is posted (the billing ledger bills the delivered ones). */
    private readonly onPosted: (event: StatusEvent) => void = () => {},
  ) {}

  schedule(message: MessageInfo, plan: PlannedStatus[]): void {
    for (const p of plan) {
      this.seq += 1;
      this.queue.push({ message, status: p.status, timestamp: p.timestamp, due: p.due, seq: this.seq });
    }
    this.arm();
  }

  get pending(): number {
    return this.queue.size;
  }

  stats() {
    return {
      pending_statuses: this.queue.size,
      statuses_posted: this.counts.statuses,
      posts: this.counts.posts,
    };
  }

  /** Drops everything queued and the timer (reset, close). */
  stop(): void {
    this.clearTimer();
    this.queue.clear();
  }

  /** Posts nothing more but keeps the queue, so a closing sandbox can still write it down. */
  halt(): void {
    this.halted = true;
    this.clearTimer();
  }

  /**
   * The statuses still to post, for the state file: each message's details once, its statuses as small
   * tuples (a message has up to four, so this is about a third of the plain list's size).
   */
  save(): SavedStatuses {
    const index = new Map<MessageInfo, number>();
    const messages: MessageInfo[] = [];
    const queue = this.queue.toArray().map((q): SavedStatus => {
      let i = index.get(q.message);
      if (i === undefined) {
        i = messages.push(q.message) - 1;
        index.set(q.message, i);
      }
      return [i, q.status, q.timestamp, q.due, q.seq];
    });
    return { messages, queue };
  }

  /**
   * Queues statuses a previous run planned but never posted, with their original due times: those already
   * due go out at once, late but in order (due time, then planning order, so each message keeps its own).
   */
  restore(saved: SavedStatuses): void {
    for (const [i, status, timestamp, due, seq] of saved.queue) {
      const message = saved.messages[i];
      if (message === undefined) continue;
      this.queue.push({ message, status, timestamp, due, seq });
      this.seq = Math.max(this.seq, seq);
    }
    this.arm();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  resetCounts(): void {
    this.counts = { statuses: 0, posts: 0 };
  }

  private arm(): void {
    const first = this.queue.peek();
    if (!first || this.halted) return;
    const target = Math.max(first.due, this.lastTick + this.settings().windowMs);
    if (this.timer && target >= this.armedFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.armedFor = target;
    this.timer = setTimeout(() => this.tick(), Math.max(0, target - Date.now()));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    this.lastTick = now;
    const byWaba = new Map<string, QueuedStatus[]>();
    for (let next = this.queue.peek(); next && next.due <= now; next = this.queue.peek()) {
      this.queue.pop();
      this.onPosted(next);
      const list = byWaba.get(next.message.wabaId);
      if (list) list.push(next);
      else byWaba.set(next.message.wabaId, [next]);
    }
    for (const [wabaId, list] of byWaba) {
      // One status a notification, as Meta's arrive; only under load does Meta group them.
      const batchSize = list.length > UNDER_LOAD ? this.settings().batchSize : 1;
      for (let i = 0; i < list.length; i += batchSize) {
        const chunk = list.slice(i, i + batchSize);
        this.counts.statuses += chunk.length;
        this.counts.posts += 1;
        this.sink(wabaId, statusesPayload(wabaId, chunk));
      }
    }
    this.arm();
  }
}
