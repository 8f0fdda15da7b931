import { randomUUID } from 'node:crypto';
import { signPayload, webhookBody } from './sign-payload';

interface WebhookRetryPolicy {
  /** Wait before the 2nd attempt; each later wait doubles. */
  retryBaseMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
}

interface WebhookAttempt {
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
}

const ATTEMPT_TIMEOUT_MS = 5000;
/** Finished deliveries kept for `/__sandbox/state`; older ones are forgotten so memory stays bounded. */
const MAX_SETTLED_RECORDS = 500;
/** Backoff doubles up to this wait, so many attempts (Meta retries for days) stay usefully spaced. */
const MAX_RETRY_WAIT_MS = 30_000;

/**
 * Posts signed notifications as Meta does: the raw JSON body with `X-Hub-Signature-256`, retried with
 * exponential backoff until a 2xx answer or the last attempt. Every delivery is kept for tests to read.
 */
export class WebhookSender {
  private records: WebhookDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly appSecret: string,
    private readonly policy: () => WebhookRetryPolicy,
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
      }));
  }

  /**
   * Sends again, at once, what a previous run had not delivered; its attempts count on (one the stop
   * interrupted may have arrived: Meta's webhooks are at least once too).
   */
  resume(saved: SavedDelivery[]): void {
    for (const s of saved) {
      const raw = webhookBody(s.body);
      const delivery: WebhookDelivery = {
        id: s.id,
        url: s.url,
        field: s.field,
        waba_id: s.waba_id,
        status: 'pending',
        attempts: Array.from({ length: s.attempts }, () => ({
          at: s.created_at,
          http_status: null,
          error: 'before the sandbox restarted',
        })),
        body: s.body,
        signature: signPayload(raw, this.appSecret),
        created_at: s.created_at,
        delivered_at: null,
      };
      this.records.push(delivery);
      void this.attempt(delivery, s.url, raw);
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
    for (const d of this.records) if (d.status === 'pending') d.status = 'cancelled';
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
      return;
    }
    const { retryBaseMs, maxAttempts } = this.policy();
    if (delivery.attempts.length >= maxAttempts) {
      delivery.status = 'failed';
      return;
    }
    const wait = Math.min(MAX_RETRY_WAIT_MS, retryBaseMs * 2 ** (delivery.attempts.length - 1));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery, url, raw);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }
}
