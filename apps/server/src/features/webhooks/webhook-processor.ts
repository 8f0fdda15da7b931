import type { PoolClient } from 'pg';
import { type Backoff, backoffMs } from '../../db/backoff';
import type { Pool } from '../../db/pool';

/** One `changes[]` item of a webhook: `field` names its kind, `value` its content. */
export interface WebhookChange {
  wabaId: string;
  field: string;
  value: unknown;
  /** The entry's `time` (Unix seconds): when Meta says the event happened; absent when Meta sent none. */
  time?: number;
}

/**
 * Work a handler leaves for the end of its batch: `collect` returns this batch's value for `key` (made by
 * `create` on first use), and `finish` runs once with it, in the batch's transaction, just before the commit.
 * Lets a handler do once per batch what would be wasteful once per event (recounting a broadcast).
 */
export interface WebhookBatch {
  collect<T>(key: string, create: () => T, finish: (client: PoolClient, value: T) => Promise<void>): T;
}

/** Applies one change inside the batch's transaction; must be idempotent (Meta delivers at least once). */
export type WebhookHandler = (
  client: PoolClient,
  change: WebhookChange,
  batch: WebhookBatch,
) => Promise<void>;

/** One batch's collected values and their finishers, in the order first collected. */
class BatchWork implements WebhookBatch {
  private readonly work = new Map<
    string,
    { value: unknown; finish: (client: PoolClient, value: unknown) => Promise<void> }
  >();

  collect<T>(key: string, create: () => T, finish: (client: PoolClient, value: T) => Promise<void>): T {
    let entry = this.work.get(key);
    if (!entry) {
      entry = { value: create(), finish: finish as (client: PoolClient, value: unknown) => Promise<void> };
      this.work.set(key, entry);
    }
    return entry.value as T;
  }

  async finish(client: PoolClient): Promise<void> {
    for (const { value, finish } of this.work.values()) await finish(client, value);
  }
}

interface WebhookPayload {
  entry?: Array<{ id?: string; time?: unknown; changes?: Array<{ field?: string; value?: unknown }> }>;
}

function changesOf(payload: WebhookPayload): WebhookChange[] {
  const changes: WebhookChange[] = [];
  for (const entry of payload.entry ?? []) {
    const time = typeof entry.time === 'number' && Number.isFinite(entry.time) ? entry.time : undefined;
    for (const change of entry.changes ?? []) {
      if (typeof change.field === 'string') {
        changes.push({
          wabaId: String(entry.id ?? ''),
          field: change.field,
          value: change.value,
          ...(time !== undefined && { time }),
        });
      }
    }
  }
  return changes;
}

/** The wait before a drain that met an error runs again: 1 s, doubling after each drain that fails again. */
const RETRY_BACKOFF: Backoff = { first: 1_000, max: 30_000 };

/**
 * Applies stored webhook events in batches: claims pending rows with FOR UPDATE SKIP LOCKED (so several
 * processes can drain at once without applying an event twice), runs each change's handler and marks the
 * event processed, all in one transaction per batch. An event whose handler fails is retried (its error kept)
 * and no longer blocks the batch after a few attempts.
 *
 * A drain that met an error (a batch Postgres refused, a pool with no free connection under load, a handler
 * that failed) drains again after a short backoff, so the events it left wait seconds, not until the next
 * webhook or the worker's sweep a minute later.
 */
export class WebhookProcessor {
  private readonly handlers = new Map<string, WebhookHandler[]>();
  private draining: Promise<number> | null = null;
  private again = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Retries in a row whose drain met an error: sets the next retry's wait. */
  private failedDrains = 0;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly log: { error: (details: object, message: string) => void } = console,
  ) {}

  /** Adds a handler for one `field`; a field may have several (a `messages` change carries statuses and inbound messages). */
  on(field: string, handler: WebhookHandler): void {
    this.handlers.set(field, [...(this.handlers.get(field) ?? []), handler]);
  }

  /** Starts a drain soon unless one is running (then it runs once more after it): cheap to call per request. */
  schedule(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    if (this.stopped) return;
    this.draining = new Promise<number>((resolve) => setImmediate(() => resolve(this.drainAll())));
    void this.draining.finally(() => {
      this.draining = null;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    });
  }

  /** Resolves when any scheduled drain has finished (tests). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Graceful shutdown: no further drains or retries; resolves when the drain in flight has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.idle();
  }

  /** After a drain: when it met an error, another one after the backoff (longer each drain that fails again). */
  private retryIfFailed(failed: boolean): void {
    if (!failed) {
      this.failedDrains = 0;
      return;
    }
    // A drain that fails while a retry waits (a webhook arrived meanwhile) does not lengthen the next wait:
    // the backoff grows with the retries that failed, not with the traffic.
    if (this.stopped || this.retryTimer) return;
    this.failedDrains += 1;
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        this.schedule();
      },
      backoffMs(this.failedDrains, RETRY_BACKOFF),
    );
    this.retryTimer.unref();
  }

  /**
   * Applies every pending event, `batchSize` per transaction. Small batches keep the API's event loop free
   * for the next webhooks: a batch's payloads are parsed in one go when its rows arrive.
   */
  async drainAll(batchSize = 100): Promise<number> {
    let total = 0;
    let failed = false;
    for (;;) {
      const { applied, failedEvents } = await this.drainBatch(batchSize).catch((error: Error) => {
        this.log.error({ err: error }, 'webhook batch failed');
        return { applied: 0, failedEvents: true };
      });
      failed ||= failedEvents;
      total += applied;
      if (applied < batchSize) break;
    }
    this.retryIfFailed(failed);
    return total;
  }

  /** One transaction's worth: how many events it took, and whether any of them failed (to be tried again). */
  private async drainBatch(batchSize: number): Promise<{ applied: number; failedEvents: boolean }> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string; payload: WebhookPayload }>(
        `select id, payload from webhook_events
          where processed_at is null and attempts < 5
          order by id limit $1 for update skip locked`,
        [batchSize],
      );
      const batch = new BatchWork();
      let failedEvents = false;
      for (const row of rows) {
        await client.query('savepoint event');
        try {
          for (const change of changesOf(row.payload)) {
            for (const handler of this.handlers.get(change.field) ?? []) await handler(client, change, batch);
          }
          await client.query(
            'update webhook_events set processed_at = now(), attempts = attempts + 1 where id = $1',
            [row.id],
          );
        } catch (error) {
          await client.query('rollback to savepoint event');
          await client.query(
            'update webhook_events set attempts = attempts + 1, last_error = $2 where id = $1',
            [row.id, (error as Error).message],
          );
          this.log.error({ err: error, eventId: row.id }, 'webhook event failed');
          failedEvents = true;
        }
      }
      // A value collected by an event rolled back above only costs a little extra work here.
      await batch.finish(client);
      await client.query('commit');
      return { applied: rows.length, failedEvents };
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
