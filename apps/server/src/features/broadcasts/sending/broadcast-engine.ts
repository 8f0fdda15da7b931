import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  FIRST_ROWS,
  SLICE_ROWS,
  startNextDueBroadcast,
  writeAudienceSlices,
} from '../audience/audience-writer';
import { completeFinishedBroadcasts, DEFAULT_OUTCOME_TIMEOUT_SECONDS } from './broadcast-completion';
import { HolderLock } from './holder-lock';
import { DEFAULT_MARKETING_LIMIT_RETRIES, requeueDueLimited } from './limited-retry';
import { NumberSender, type SenderSettings } from './number-sender';
import { SendGate } from './send-gate';
import { acquireLease } from './sender-lease';
import { beat, leaveWorkers, liveWorkers, shareOfNumbers } from './worker-share';

/**
 * The broadcast pipeline (docs/architecture.md): starts due broadcasts by freezing their audience, then runs
 * one sender per phone number (number-sender.ts), holding a lease in Postgres so that across any number of
 * workers a number sends from one place, paced at its throughput. Message rows are the queue: claimed with
 * FOR UPDATE SKIP LOCKED (marked `sending`), marked requested a small group at a time just before their requests
 * (request-marks.ts), settled after them in batches.
 */
export class BroadcastEngine {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly senders = new Map<number, Promise<void>>();
  private readonly writers = new Map<number, Promise<void>>();
  private stopped = false;
  /** Settles when stop() is called, so sends still waiting for the bucket give their rows back at once. */
  private readonly stopping: Promise<void>;
  private signalStop!: () => void;
  /** Stops a batch in flight when its broadcast is paused (by WhatsApp or the user): decision 029. */
  private readonly gate: SendGate;
  /** Tells the other workers this one is alive: a killed worker's numbers move at once (decision 069). */
  private readonly lock: HolderLock;

  constructor(
    private readonly deps: SenderSettings & {
      leaseSeconds?: number;
      /** An unconfirmed message with no status after this long gets the outcome 'unknown' (MESSAGE_OUTCOME_TIMEOUT_SECONDS). */
      unconfirmedTimeoutSeconds?: number;
      /** Message rows written at the start and then per slice (defaults FIRST_ROWS, SLICE_ROWS; tests shrink them). */
      audienceRows?: { first: number; slice: number };
      /** How many times a message limited by WhatsApp (131049) is sent again, a day apart (MARKETING_LIMIT_RETRIES). */
      marketingLimitRetries?: number;
    },
  ) {
    this.stopping = new Promise((resolve) => (this.signalStop = resolve));
    this.gate = new SendGate(deps.pool, deps.log);
    this.lock = new HolderLock(deps.pool, this.holder, deps.log);
  }

  /** One pass: start what is due, then make sure every number with queued work has a sender. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    await beat(this.deps.pool, this.holder);
    await this.startDue();
    await this.writeAudiences();
    await requeueDueLimited(
      this.deps.pool,
      this.deps.marketingLimitRetries ?? DEFAULT_MARKETING_LIMIT_RETRIES,
    );
    const { rows } = await this.deps.pool.query<{ phone_number_id: number }>(
      `select distinct b.phone_number_id::int from broadcasts b
        where b.status = 'sending' and (b.waiting_until is null or b.waiting_until <= now())
          and exists (select 1 from broadcast_messages m
                       where m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
                         and m.state in ('queued', 'sending'))`,
    );
    // Without its liveness lock (not yet taken, or lost with its connection) a worker takes no number: others
    // would take it back at once. It keeps sending the numbers it has; their marks check the lease row.
    if (await this.lock.hold()) await this.startSenders(rows.map((row) => row.phone_number_id));
    await completeFinishedBroadcasts(
      this.deps.pool,
      this.deps.unconfirmedTimeoutSeconds ?? DEFAULT_OUTCOME_TIMEOUT_SECONDS,
    );
  }

  /**
   * Starts a sender for each number with work that no worker sends yet, up to this worker's fair share of
   * the numbers among the live workers (worker-share.ts): which worker ticks first does not decide who sends
   * them all. The lease is taken here, so a number this worker skips stays free for another.
   */
  private async startSenders(withWork: number[]): Promise<void> {
    const free = withWork.filter((phoneId) => !this.senders.has(phoneId));
    if (free.length === 0) return;
    const workers = await liveWorkers(this.deps.pool, this.holder, this.leaseSeconds);
    const share = shareOfNumbers(withWork.length, workers);
    for (const phoneId of free) {
      if (this.stopped || this.senders.size >= share) return;
      if (!(await acquireLease(this.deps.pool, phoneId, this.holder, this.leaseSeconds, true))) continue;
      const run = this.runSender(phoneId)
        .catch((error: Error) => this.deps.log?.error({ err: error, phoneId }, 'sender failed'))
        .finally(() => this.senders.delete(phoneId));
      this.senders.set(phoneId, run);
    }
  }

  private get leaseSeconds(): number {
    return this.deps.leaseSeconds ?? 15;
  }

  /** Starts every due broadcast (the first step of a tick); answers how many started. */
  async startDue(): Promise<number> {
    let started = 0;
    while (await this.startNextDue()) started += 1;
    return started;
  }

  /** Resolves when every sender this process runs has finished (tests wait on it). */
  async idle(): Promise<void> {
    while (this.senders.size > 0 || this.writers.size > 0) {
      await Promise.all([...this.senders.values(), ...this.writers.values()]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    await this.idle();
    await this.gate.close();
    await this.deps.pool
      .query('delete from sender_leases where holder = $1', [this.holder])
      .catch(() => undefined);
    await leaveWorkers(this.deps.pool, this.holder).catch(() => undefined);
    await this.lock.release();
  }

  private startNextDue(): Promise<boolean> {
    return startNextDueBroadcast(this.deps.pool, this.deps.audienceRows?.first ?? FIRST_ROWS, this.deps.log);
  }

  /** Makes sure each started broadcast whose audience is not fully written has a writer in this process. */
  private async writeAudiences(): Promise<void> {
    const { rows } = await this.deps.pool.query<{ broadcast_id: number }>(
      'select broadcast_id::int from broadcast_audiences',
    );
    for (const { broadcast_id: broadcastId } of rows) {
      if (this.writers.has(broadcastId)) continue;
      const run = this.writeAudience(broadcastId)
        .catch((error: Error) => this.deps.log?.error({ err: error, broadcastId }, 'audience writer failed'))
        .finally(() => this.writers.delete(broadcastId));
      this.writers.set(broadcastId, run);
    }
  }

  private writeAudience(broadcastId: number): Promise<void> {
    return writeAudienceSlices(
      this.deps.pool,
      broadcastId,
      this.deps.audienceRows?.slice ?? SLICE_ROWS,
      () => this.stopped,
    );
  }

  private runSender(phoneId: number): Promise<void> {
    return new NumberSender(
      {
        ...this.deps,
        holder: this.holder,
        leaseSeconds: this.leaseSeconds,
        gate: this.gate,
        stopping: this.stopping,
        stopped: () => this.stopped,
      },
      phoneId,
    ).run();
  }
}
