import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from '../../../db/pool';
import type { SecretBox } from '../../../security/secret-box';
import type { RateCard } from '../../pricing';
import { endpointsFor, type SendEndpoint } from '../../marketing-messages/index';
import { requestBatch, type Sendable } from './batch-requests';
import { markCountsStale } from '../broadcast-counts';
import type { EngineLog } from './engine-log';
import { giveBack } from '../message-rows';
import type { MessageSender } from './message-sender';
import { settleMessages, type SendResult } from './message-settle';
import { reserveFrequencyCap } from './frequency-cap';
import { PORTFOLIO_OF_WABA, reserveBatch } from './messaging-limit';
import type { BatchGate, SendGate } from './send-gate';
import { toResult } from './send-result';
import { linkToken } from '../../../security/link-token';
import { claimBatch, loadTemplates, renderClaimed, type Claimed, type SendContext } from './sender-batch';
import { acquireLease, type HeldLease, leaseSurelyHeldUntil, whileLeased } from './sender-lease';
import { cutAtSpendCap } from '../cost/spend-cap';
import { TokenBucket } from './token-bucket';
import { UnansweredSends } from './unanswered-sends';

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

/** What the engine is given for its senders (broadcast-engine.ts passes its own settings through). */
export interface SenderSettings {
  pool: Pool;
  sender: MessageSender;
  secrets: SecretBox;
  log?: EngineLog;
  /** Overrides the number's throughput level (tests, benchmarks). */
  mpsOverride?: number;
  /** Reserve the portfolio's messaging limit before each batch (default true; the bench measures it off). */
  messagingLimit?: boolean;
  /** Prices each message against its broadcast's spend cap (decision 052); the shipped card when absent. */
  rateCard?: RateCard;
}

/** What a number's sender needs of the engine that runs it: its settings, and this worker's lease and stop. */
export interface NumberSenderDeps extends SenderSettings {
  /** This worker's lease holder name (host:pid:nonce). */
  holder: string;
  leaseSeconds: number;
  /** Stops a batch in flight when its broadcast is paused (decision 029). */
  gate: SendGate;
  /** Settles when the worker stops, so sends still waiting for the bucket give their rows back at once. */
  stopping: Promise<void>;
  stopped: () => boolean;
}

/**
 * One number's sender, run while this worker holds the number's lease: claims batches of its queued message
 * rows, renders them, passes the spend cap and the portfolio's messaging limit, requests them at the number's
 * pace and writes their results back, until the number has nothing due or the worker stops.
 */
export class NumberSender {
  constructor(
    private readonly deps: NumberSenderDeps,
    private readonly phoneId: number,
  ) {}

  async run(): Promise<void> {
    const asked = Date.now();
    if (!(await this.acquireLease())) return;
    const lease: HeldLease = { renewedAt: asked };
    const context = await this.sendContext();
    const bucket = new TokenBucket(context.mps);
    // Two overlaps keep the number sending between batches (a gap past the bucket's 100 ms burst is send time
    // lost for good): the next batch is claimed, rendered and reserved against the messaging limit while this
    // one sends, and this batch's results are written while the next one sends. One settle at a time, in
    // batch order; a failed preparation or settle stops the sender as before.
    let settling: Promise<void> = Promise.resolve();
    let next = observed(this.prepare(context, lease));
    try {
      while (!this.deps.stopped()) {
        const prepared = await next;
        if (prepared.kind === 'lease lost') return;
        if (prepared.kind === 'empty') {
          await settling; // its retries are queued rows to wait for
          const wait = await this.nextRetryInMs();
          if (wait === null) return;
          await sleep(Math.min(wait, 1_000));
          next = observed(this.prepare(context, lease));
          continue;
        }
        next = observed(this.prepare(context, lease));
        if (prepared.kind === 'not prepared') continue;
        // The number's throughput may have been raised meanwhile (THROUGHPUT_UPGRADE): paced so from this batch.
        context.mps = await this.currentMps(context.mps);
        if (bucket.rate !== context.mps) bucket.setRate(context.mps);
        const unanswered = new UnansweredSends();
        const results = await this.sendBatch(context, bucket, prepared, unanswered);
        // This batch's results are written after the previous batch's, even when those failed: a sender that
        // stops on a failed settle still writes what WhatsApp answered to the requests it made since.
        const previous = settling;
        settling = observed(
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
        await this.settle(context, [
          ...left.unsent,
          ...left.sendable.map(({ message }) => ({ id: message.id, state: 'released' }) as Result),
        ]).catch(() => undefined);
      }
      await settling.catch(() => undefined);
      await this.deps.pool
        .query('delete from sender_leases where phone_number_id = $1 and holder = $2', [
          this.phoneId,
          this.deps.holder,
        ])
        .catch(() => undefined);
    }
  }

  private acquireLease(): Promise<boolean> {
    return acquireLease(this.deps.pool, this.phoneId, this.deps.holder, this.deps.leaseSeconds);
  }

  /**
   * Claims the number's next batch and readies it: renders each message and reserves the portfolio's messaging
   * limit for those that rendered. Rows that cannot go now are settled or given back here.
   */
  private async prepare(context: SendContext, lease: HeldLease): Promise<Prepared> {
    const asked = Date.now();
    if (this.deps.stopped() || !(await this.acquireLease())) return { kind: 'lease lost' };
    lease.renewedAt = asked;
    const gate = await this.deps.gate.batch();
    const batch = await claimBatch(this.deps.pool, this.phoneId);
    if (batch.length === 0) return { kind: 'empty' };
    let endpoints: Map<number, SendEndpoint>;
    try {
      await loadTemplates(this.deps, context, batch);
      // Read each batch: a template re-categorised mid-broadcast goes through the endpoint of its new category.
      endpoints = await endpointsFor(this.deps.pool, context.accountId, [
        ...new Set(batch.map((message) => message.broadcast_id)),
      ]);
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
      const endpoint = endpoints.get(message.broadcast_id) ?? 'messages';
      if (rendered.ok) ready.push({ message, template: rendered.template, endpoint });
      else unsent.push({ id: message.id, state: 'failed', code: null, title: rendered.reason });
    }
    const allowed = await this.reserveLimit(context, ready, unsent).catch(async (error: unknown) => {
      // Nothing was requested: the batch goes back to the queue as it was, and this sender stops (the
      // next tick starts another), rather than leaving its rows 'sending'.
      await this.settle(context, [
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
    return requestBatch(this.deps, context, bucket, gate, sendable, unanswered);
  }

  private async settleBatch(
    context: SendContext,
    lease: HeldLease,
    batch: Claimed[],
    results: Result[],
    unanswered: UnansweredSends,
  ): Promise<void> {
    // One deadline for the batch's three writes, however long each of them waited.
    const deadline = leaseSurelyHeldUntil(lease, this.deps.leaseSeconds);
    await whileLeased(deadline, () => this.settle(context, results));
    await whileLeased(deadline, () =>
      markCountsStale(
        this.deps.pool,
        batch.map((m) => m.broadcast_id),
      ),
    );
    await whileLeased(deadline, () => unanswered.record(this.deps.pool));
  }

  /**
   * Writes results; rows never requested go back to the queue only while this sender holds the lease
   * (giveBack). Both writes are idempotent, so whileLeased may run them again.
   */
  private async settle(context: SendContext, results: Result[]): Promise<void> {
    await settleMessages(
      this.deps.pool,
      context.accountId,
      results.filter((result) => result.state !== 'released'),
    );
    await giveBack(
      this.deps.pool,
      { phoneId: this.phoneId, accountId: context.accountId, holder: this.deps.holder },
      results.filter((result) => result.state === 'released').map((result) => result.id),
    );
  }

  /**
   * The ids of the batch that may be sent now: within the account's frequency cap (frequency-cap.ts; the rest
   * join `unsent`, skipped), then their broadcasts' spend caps (spend-cap.ts; the rest join `unsent`, released),
   * then the portfolio's 24-hour limit (messaging-limit.ts). The frequency cap comes first, so a person it skips
   * takes nothing from the spend cap or the messaging limit.
   */
  private async reserveLimit(
    context: SendContext,
    ready: Array<{ message: Claimed }>,
    unsent: Result[],
  ): Promise<Set<number>> {
    const { allowed, skipped } = await reserveFrequencyCap(this.deps.pool, context.accountId, ready);
    unsent.push(...skipped);
    const withinCap = await cutAtSpendCap(
      this.deps.pool,
      context.accountId,
      this.deps.rateCard,
      allowed,
      unsent,
    );
    const messages = withinCap.map(({ message }) => message);
    if (this.deps.messagingLimit === false) return new Set(messages.map((m) => m.id));
    return reserveBatch(this.deps.pool, context, messages, this.deps.log);
  }

  private async sendContext(): Promise<SendContext> {
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
      [this.phoneId],
    );
    const row = rows[0]!;
    return {
      phoneId: this.phoneId,
      accountId: row.waba_account_id,
      token: this.deps.secrets.open(row.token),
      phoneNumberId: row.phone_number_id,
      portfolio: row.portfolio,
      templates: new Map(),
      media: new Map<number, string>(),
      mps: this.deps.mpsOverride ?? MPS_OF_LEVEL[row.throughput_level ?? 'STANDARD'] ?? 80,
      linkToken: (messageId) => linkToken(this.deps.secrets, row.waba_account_id, messageId),
    };
  }

  /** The number's pace now: its throughput level as last stored (a webhook may have raised it), or the override. */
  private async currentMps(fallback: number): Promise<number> {
    if (this.deps.mpsOverride !== undefined) return this.deps.mpsOverride;
    const { rows } = await this.deps.pool.query<{ level: string | null }>(
      'select throughput_level as level from phone_numbers where id = $1',
      [this.phoneId],
    );
    return rows[0] ? (MPS_OF_LEVEL[rows[0].level ?? 'STANDARD'] ?? 80) : fallback;
  }

  private async nextRetryInMs(): Promise<number | null> {
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
      [this.phoneId],
    );
    const wait = rows[0]?.wait;
    return wait === null || wait === undefined ? null : Math.max(0, Number(wait));
  }
}

/** Marks a promise's failure as observed (it is awaited, and thrown, later): no unhandled rejection meanwhile. */
function observed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
