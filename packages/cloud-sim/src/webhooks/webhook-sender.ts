import { randomUUID } from 'node:crypto';
import { nextAttempt, retryWait } from './retry-policy';
import type { WebhookRetryPolicy } from './retry-policy';
import { signPayload, webhookBody } from './sign-payload';

export interface WebhookAttempt {
  at: string;
  http_status: number | null;
  error: string | null;
}

interface WebhookDelivery {
  id: string;
  url: string | null;
  field: string;
  waba_id: string;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled' | 'no_target';
  attempts: WebhookAttempt[];
  body: unknown;
  signature: string;
  created_at: string;
  delivered_at: string | null;
  /** When the next attempt is due (null: none is planned). */
  next_attempt_at: string | null;
  /** Why a `failed` delivery was given up. */
  failure: string | null;
}

/** A delivery still to be made, as the state file keeps it across a restart (see persistence/). */
export interface SavedDelivery {
  id: string;
  url: string;
  field: string;
  waba_id: string;
  body: unknown;
  attempts: number;
  created_at: string;
  /** The attempts themselves, and when the next was due (absent in files of older sandboxes). */
  attempt_log?: WebhookAttempt[];
  next_attempt_at?: string | null;
}

const ATTEMPT_TIMEOUT_MS = 5000;
/** Finished deliveries kept for `/__sandbox/state`; older ones are forgotten so memory stays bounded. */
const MAX_SETTLED_RECORDS = 500;

/**
 * Posts signed notifications as Meta does: the raw JSON body with `X-Hub-Signature-256`, retried with
 * exponential back-off until a 2xx answer or the policy gives up (retry-policy.ts: for up to 7 days by
 * default). Every delivery is kept for tests to read.
 */
export class WebhookSender {
  private records: WebhookDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly appSecret: string,
    private readonly policy: () => WebhookRetryPolicy,
    /** Told when a delivery settles, so the saved list of pending ones follows. */
    private readonly onSettled: () => void = () => undefined,
  ) {}

  send(url: string | null, payload: unknown, meta: { field: string; wabaId: string }): WebhookDelivery {
    const raw = webhookBody(payload);
    const delivery: WebhookDelivery = {
      id: randomUUID(),
      url,
      field: meta.field,
      waba_id: meta.wabaId,
      status: url === null ? 'no_target' : 'pending',
      attempts: [],
      body: payload,
      signature: signPayload(raw, this.appSecret),
      created_at: new Date().toISOString(),
      delivered_at: null,
      next_attempt_at: null,
      failure: null,
    };
    this.records.push(delivery);
    if (this.records.length > 2 * MAX_SETTLED_RECORDS) this.forgetOldSettled();
    if (url !== null) void this.attempt(delivery, url, raw);
    return delivery;
  }

  /** Deliveries not yet answered 2xx nor given up: a restart must not lose them. */
  pendingDeliveries(): SavedDelivery[] {
    return this.records
      .filter((d) => d.status === 'pending' && d.url !== null)
      .map((d) => ({
        id: d.id,
        url: d.url as string,
        field: d.field,
        waba_id: d.waba_id,
        body: d.body,
        attempts: d.attempts.length,
        created_at: d.created_at,
        attempt_log: d.attempts,
        next_attempt_at: d.next_attempt_at,
      }));
  }

  /**
   * Carries on with what a previous run had not delivered, as if the sandbox had not stopped: the attempts
   * made count on, the age runs from the first post (older than the max age: given up), and the next attempt
   * comes when it was due, or sooner if the policy now in force waits less. One the stop interrupted may have
   * arrived: Meta's webhooks are at least once too.
   */
  resume(saved: SavedDelivery[]): void {
    const now = Date.now();
    const policy = this.policy();
    for (const s of saved) {
      const raw = webhookBody(s.body);
      const delivery: WebhookDelivery = {
        id: s.id,
        url: s.url,
        field: s.field,
        waba_id: s.waba_id,
        status: 'pending',
        attempts:
          s.attempt_log ??
          Array.from({ length: s.attempts }, () => ({
            at: s.created_at,
            http_status: null,
            error: 'before the sandbox restarted',
          })),
        body: s.body,
        signature: signPayload(raw, this.appSecret),
        created_at: s.created_at,
        delivered_at: null,
        next_attempt_at: null,
        failure: null,
      };
      this.records.push(delivery);
      const made = delivery.attempts.length;
      const savedDue = s.next_attempt_at ? Date.parse(s.next_attempt_at) : now;
      const wait = made === 0 ? 0 : Math.max(0, Math.min(savedDue - now, retryWait(policy, made)));
      const createdAt = Date.parse(s.created_at);
      if (now + wait - createdAt > policy.retryMaxAgeMs) {
        this.giveUp(delivery, `older than ${policy.retryMaxAgeMs} ms when the sandbox restarted`);
      } else if (policy.maxAttempts !== null && made >= policy.maxAttempts) {
        this.giveUp(delivery, `no answer 2xx after ${made} attempts`);
      } else {
        this.schedule(delivery, s.url, raw, wait);
      }
    }
  }

  deliveries(): WebhookDelivery[] {
    return this.records;
  }

  /** Stops every retry and in-flight request; pending deliveries end as `cancelled`. */
  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    for (const d of this.records) {
      if (d.status !== 'pending') continue;
      d.status = 'cancelled';
      d.next_attempt_at = null;
    }
  }

  clear(): void {
    this.cancelAll();
    this.records.length = 0;
  }

  private forgetOldSettled(): void {
    let excess = this.records.filter((d) => d.status !== 'pending').length - MAX_SETTLED_RECORDS;
    if (excess <= 0) return;
    this.records = this.records.filter((d) => d.status === 'pending' || excess-- <= 0);
  }

  private async attempt(delivery: WebhookDelivery, url: string, raw: string): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    const record: WebhookAttempt = { at: new Date().toISOString(), http_status: null, error: null };
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': delivery.signature,
          'user-agent': 'facebookexternalua',
        },
        body: raw,
        signal: controller.signal,
      });
      await response.body?.cancel();
      record.http_status = response.status;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
    if (delivery.status !== 'pending') return; // cancelled meanwhile
    delivery.attempts.push(record);
    if (record.http_status !== null && record.http_status >= 200 && record.http_status < 300) {
      delivery.status = 'delivered';
      delivery.delivered_at = new Date().toISOString();
      this.onSettled();
      return;
    }
    const now = Date.now();
    const next = nextAttempt(
      this.policy(),
      { attemptsMade: delivery.attempts.length, createdAt: Date.parse(delivery.created_at) },
      now,
    );
    if (next.giveUp) this.giveUp(delivery, next.reason);
    else this.schedule(delivery, url, raw, next.at - now);
  }

  private schedule(delivery: WebhookDelivery, url: string, raw: string, waitMs: number): void {
    delivery.next_attempt_at = new Date(Date.now() + waitMs).toISOString();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      delivery.next_attempt_at = null;
      void this.attempt(delivery, url, raw);
    }, waitMs);
    timer.unref();
    this.timers.add(timer);
  }

  private giveUp(delivery: WebhookDelivery, reason: string): void {
    delivery.status = 'failed';
    delivery.failure = reason;
    delivery.next_attempt_at = null;
    this.onSettled();
  }
}
