import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Pool } from '../../db/pool';
import type { SecretBox } from '../../security/secret-box';
import { FIRST_ROWS, SLICE_ROWS, startNextDueBroadcast, writeAudienceSlices } from './audience-writer';
import { markCountsStale } from './broadcast-counts';
import type { MessageSender } from './message-sender';
import { toResult } from './send-result';

export type { Claimed } from './sender-batch';
import { completeFinishedBroadcasts, DEFAULT_OUTCOME_TIMEOUT_SECONDS } from './broadcast-completion';
import { settleMessages, type SendResult } from './message-settle';
import { claimBatch, loadTemplates, renderClaimed, type Claimed, type SendContext } from './sender-batch';
import { PORTFOLIO_OF_WABA, reserveBatch } from './messaging-limit';
import { TokenBucket } from './token-bucket';
import { SendGate, type BatchGate } from './send-gate';
import { DEFAULT_MARKETING_LIMIT_RETRIES, requeueDueLimited } from './limited-retry';
import type { RateCard } from '../pricing/rate-card';
import { cutAtSpendCap } from './spend-cap';
import { requestBatch, type Sendable } from './batch-requests';
import { acquireLease, type HeldLease, leaseSurelyHeldUntil, whileLeased } from './sender-lease';
import { UnansweredSends } from './unanswered-sends';
import { leaveWorkers, liveWorkers, shareOfNumbers } from './worker-share';

const OPTED_OUT = 'The contact opted out after the broadcast started; not sent';
const MPS_OF_LEVEL: Record<string, number> = { STANDARD: 80, HIGH: 1_000 };

type Result = SendResult;

/** A batch readied for sending, or why there is none. */
type Prepared =
  | { kind: 'lease lost' }
  | { kind: 'empty' }
  /** Its templates could not be loaded: the rows are back in the queue with a backoff. */
  | { kind: 'not prepared' }
  | { kind: 'batch'; gate: BatchGate; batch: Claimed[]; unsent: Result[]; sendable: Sendable[] };

export interface EngineLog {
  info: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
}

/**
 * The broadcast pipeline (docs/architecture.md): starts due broadcasts by freezing their audience, then runs
 * one sender per phone number, holding a lease in Postgres so that across any number of workers a number
 * sends from one place, paced at its throughput. Message rows are the queue: claimed with
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

  constructor(
    private readonly deps: {
      pool: Pool;
      sender: MessageSender;
      secrets: SecretBox;
      log?: EngineLog;
      /** Overrides the number's throughput level (tests, benchmarks). */
      mpsOverride?: number;
      leaseSeconds?: number;
      /** An unconfirmed message with no status after this long gets the outcome 'unknown' (MESSAGE_OUTCOME_TIMEOUT_SECONDS). */
      unconfirmedTimeoutSeconds?: number;
      /** Message rows written at the start and then per slice (defaults FIRST_ROWS, SLICE_ROWS; tests shrink them). */
      audienceRows?: { first: number; slice: number };
      /** How many times a message limited by WhatsApp (131049) is sent again, a day apart (MARKETING_LIMIT_RETRIES). */
      marketingLimitRetries?: number;
      /** Reserve the portfolio's messaging limit before each batch (default true; the bench measures it off). */
      messagingLimit?: boolean;
      /** Prices each message against its broadcast's spend cap (decision 052); the shipped card when absent. */
      rateCard?: RateCard;
    },
  ) {
    this.stopping = new Promise((resolve) => (this.signalStop = resolve));
    this.gate = new SendGate(deps.pool, deps.log);
  }

  /** One pass: start what is due, then make sure every number with queued work has a sender. */
  async tick(): Promise<void> {
    if (this.stopped) return;
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
    await this.startSenders(rows.map((row) => row.phone_number_id));
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

  private acquireLease(phoneId: number): Promise<boolean> {
    return acquireLease(this.deps.pool, phoneId, this.holder, this.leaseSeconds);
  }

  private async runSender(phoneId: number): Promise<void> {
    const asked = Date.now();
    if (!(await this.acquireLease(phoneId))) return;
    const lease: HeldLease = { renewedAt: asked };
    const context = await this.sendContext(phoneId);
    const bucket = new TokenBucket(context.mps);
    // Two overlaps keep the number sending between batches (a gap past the bucket's 100 ms burst is send time
    // lost for good): the next batch is claimed, rendered and reserved against the messaging limit while this
    // one sends, and this batch's results are written while the next one sends. One settle at a time, in
    // batch order; a failed preparation or settle stops the sender as before.
    let settling: Promise<void> = Promise.resolve();
    let next = this.observed(this.prepare(phoneId, context, lease));
    try {
      while (!this.stopped) {
        const prepared = await next;
        if (prepared.kind === 'lease lost') return;
        if (prepared.kind === 'empty') {
          await settling; // its retries are queued rows to wait for
          const wait = await this.nextRetryInMs(phoneId);
          if (wait === null) return;
          await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 1_000)));
          next = this.observed(this.prepare(phoneId, context, lease));
          continue;
        }
        next = this.observed(this.prepare(phoneId, context, lease));
        if (prepared.kind === 'not prepared') continue;
        const unanswered = new UnansweredSends();
        const results = await this.sendBatch(context, bucket, prepared, unanswered);
        // This batch's results are written after the previous batch's, even when those failed: a sender that
        // stops on a failed settle still writes what WhatsApp answered to the requests it made since.
        const previous = settling;
        settling = this.observed(
          previous
            .catch(() => undefined)
            .then(() =>
              this.settleBatch(context, lease, prepared.batch, [...prepared.unsent, ...results], unanswered),
            ),
        );
        await previous;
      }
      await settling;
    } finally {
      // A batch prepared but never sent (the worker is stopping) goes back to the queue unrequested.
      const left = await next.catch(() => null);
      if (left?.kind === 'batch') {
        await settleMessages(this.deps.pool, context.accountId, [
          ...left.unsent,
          ...left.sendable.map(({ message }) => ({ id: message.id, state: 'released' }) as Result),
        ]).catch(() => undefined);
      }
      await settling.catch(() => undefined);
      await this.deps.pool
        .query('delete from sender_leases where phone_number_id = $1 and holder = $2', [phoneId, this.holder])
        .catch(() => undefined);
    }
  }

  /** Marks a promise's failure as observed (it is awaited, and thrown, later): no unhandled rejection meanwhile. */
  private observed<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => undefined);
    return promise;
  }

  /**
   * Claims the number's next batch and readies it: renders each message and reserves the portfolio's messaging
   * limit for those that rendered. Rows that cannot go now are settled or given back here.
   */
  private async prepare(phoneId: number, context: SendContext, lease: HeldLease): Promise<Prepared> {
    const asked = Date.now();
    if (this.stopped || !(await this.acquireLease(phoneId))) return { kind: 'lease lost' };
    lease.renewedAt = asked;
    const gate = await this.gate.batch();
    const batch = await claimBatch(this.deps.pool, phoneId);
    if (batch.length === 0) return { kind: 'empty' };
    try {
      await loadTemplates(this.deps, context, batch);
    } catch (error) {
      // Not sent, provably: the batch goes back to the queue with a backoff, like a refused connection.
      const title = `Could not prepare the message: ${(error as Error).message}`;
      await settleMessages(
        this.deps.pool,
        context.accountId,
        batch.map((message) => toResult(message, { kind: 'retry', code: 0, title })),
      );
      return { kind: 'not prepared' };
    }
    const unsent: Result[] = [];
    const ready: Sendable[] = [];
    for (const message of batch) {
      const rendered = message.opted_out
        ? { ok: false as const, reason: OPTED_OUT }
        : renderClaimed(context, message);
      if (rendered.ok) ready.push({ message, template: rendered.template });
      else unsent.push({ id: message.id, state: 'failed', code: null, title: rendered.reason });
    }
    const allowed = await this.reserveLimit(context, ready, unsent).catch(async (error: unknown) => {
      // Nothing was requested: the batch goes back to the queue as it was, and this sender stops (the
      // next tick starts another), rather than leaving its rows 'sending'.
      await settleMessages(this.deps.pool, context.accountId, [
        ...unsent,
        ...ready.map(({ message }) => ({ id: message.id, state: 'released' }) as Result),
      ]);
      throw error;
    });
    return {
      kind: 'batch',
      gate,
      batch,
      unsent,
      sendable: ready.filter(({ message }) => allowed.has(message.id)),
    };
  }

  /** Requests a prepared batch at the number's pace (batch-requests.ts); answers each handled message's result. */
  private sendBatch(
    context: SendContext,
    bucket: TokenBucket,
    { gate, sendable }: Extract<Prepared, { kind: 'batch' }>,
    unanswered: UnansweredSends,
  ): Promise<Result[]> {
    const { pool, sender, log } = this.deps;
    const engine = { pool, sender, log, holder: this.holder, stopping: this.stopping };
    return requestBatch(
      { ...engine, stopped: () => this.stopped },
      context,
      bucket,
      gate,
      sendable,
      unanswered,
    );
  }

  private async settleBatch(
    context: SendContext,
    lease: HeldLease,
    batch: Claimed[],
    results: Result[],
    unanswered: UnansweredSends,
  ): Promise<void> {
    // One deadline for the batch's three writes, however long each of them waited.
    const deadline = leaseSurelyHeldUntil(lease, this.leaseSeconds);
    await whileLeased(deadline, () => settleMessages(this.deps.pool, context.accountId, results));
    await whileLeased(deadline, () =>
      markCountsStale(
        this.deps.pool,
        batch.map((m) => m.broadcast_id),
      ),
    );
    await whileLeased(deadline, () => unanswered.record(this.deps.pool));
  }

  /**
   * The ids of the batch that may be sent now: within their broadcasts' spend caps (spend-cap.ts; the rest join
   * `unsent`, released) and under the portfolio's 24-hour limit (messaging-limit.ts).
   */
  private async reserveLimit(
    context: SendContext,
    ready: Array<{ message: Claimed }>,
    unsent: Result[],
  ): Promise<Set<number>> {
    const withinCap = await cutAtSpendCap(
      this.deps.pool,
      context.accountId,
      this.deps.rateCard,
      ready,
      unsent,
    );
    const messages = withinCap.map(({ message }) => message);
    if (this.deps.messagingLimit === false) return new Set(messages.map((m) => m.id));
    return reserveBatch(this.deps.pool, context, messages, this.deps.log);
  }

  private async sendContext(phoneId: number): Promise<SendContext> {
    const { rows } = await this.deps.pool.query<{
      waba_account_id: number;
      phone_number_id: string;
      throughput_level: string | null;
      token: string;
      portfolio: string;
    }>(
      `select p.waba_account_id::int, p.phone_number_id, p.throughput_level, w.business_token_encrypted as token,
              ${PORTFOLIO_OF_WABA} as portfolio
         from phone_numbers p join waba_accounts w on w.id = p.waba_account_id where p.id = $1`,
      [phoneId],
    );
    const row = rows[0]!;
    return {
      phoneId,
      accountId: row.waba_account_id,
      token: this.deps.secrets.open(row.token),
      phoneNumberId: row.phone_number_id,
      portfolio: row.portfolio,
      templates: new Map(),
      media: new Map<number, string>(),
      mps: this.deps.mpsOverride ?? MPS_OF_LEVEL[row.throughput_level ?? 'STANDARD'] ?? 80,
    };
  }

  private async nextRetryInMs(phoneId: number): Promise<number | null> {
    // A broadcast whose audience is still being written will have more rows in a moment. One waiting for the
    // messaging limit is not waited for here (that may be hours): the tick starts a sender again when it is due.
    const { rows } = await this.deps.pool.query<{ wait: number | null }>(
      `select least(
         (select extract(epoch from (min(m.next_attempt_at) - now())) * 1000
            from broadcast_messages m join broadcasts b on b.id = m.broadcast_id
           where b.phone_number_id = $1 and b.status = 'sending' and m.state = 'queued'
             and (b.waiting_until is null or b.waiting_until <= now())),
         (select 50 from broadcast_audiences a join broadcasts b on b.id = a.broadcast_id
           where b.phone_number_id = $1 limit 1)) as wait`,
      [phoneId],
    );
    const wait = rows[0]?.wait;
    return wait === null || wait === undefined ? null : Math.max(0, Number(wait));
  }
}
