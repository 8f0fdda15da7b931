import type { Pool } from '../../db/pool';

interface Waiting {
  payload: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Stores webhook bodies durably before they are acknowledged, with group commit: while one insert is in
 * flight, the bodies that arrive meanwhile wait and then go together in one insert (one commit, one WAL
 * flush). A lone webhook is stored at once; under Meta's bursts the commits per second stay few, so each
 * answer stays fast. Nothing is acknowledged before its own insert has committed.
 *
 * Idempotent (decision 019): a body already stored (a replay; Meta retries identical bodies) is acknowledged
 * like a new one but not stored again, so it is never applied twice. The check is part of the same insert
 * (a unique sha256 of the canonical JSON, ON CONFLICT DO NOTHING), so it costs no round trip, and copies
 * within one batch collapse as well.
 */
export class WebhookInbox {
  private waiting: Waiting[] = [];
  private inFlight = false;

  constructor(
    private readonly pool: Pool,
    /** Bodies per insert at most. */
    private readonly maxBatch = 500,
  ) {}

  /** Resolves once the body (JSON text, already checked) is committed to webhook_events, or was already. */
  store(payload: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ payload, resolve, reject });
      if (!this.inFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inFlight = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        await this.insert(batch);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        // One body Postgres refuses (JSON that jsonb cannot hold, such as \u0000) must not fail the others.
        else await Promise.all(batch.map((entry) => this.insert([entry]).then(entry.resolve, entry.reject)));
      }
    }
    this.inFlight = false;
  }

  private async insert(batch: Waiting[]): Promise<void> {
    await this.pool.query(
      `insert into webhook_events (payload, body_sha256)
       select payload, sha256(convert_to(payload::text, 'UTF8')) from unnest($1::jsonb[]) as payload
       on conflict (body_sha256) do nothing`,
      [batch.map((entry) => entry.payload)],
    );
  }
}
