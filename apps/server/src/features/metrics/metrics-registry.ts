import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Pool } from '../../db/pool';
import { messagesSent } from './send-outcomes';
import { statusRepairs } from './status-repairs';

/**
 * One process's Prometheus metrics. Counters move as things happen (HTTP answers, sends settled, import rows);
 * gauges read from Postgres (queue depth, webhook lag) are set by `scrape()` just before the text is written.
 * The Postgres gauges are the same from every process: aggregate them with max(), not sum().
 */
export class HeraldMetrics {
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'herald_http_requests_total',
    help: 'HTTP answers by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'herald_http_request_duration_seconds',
    help: 'Time to answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly importRows = new Counter({
    name: 'herald_contact_import_rows_total',
    help: 'Contact rows written by finished CSV imports, by kind (created, updated)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly queueDepth = new Gauge({
    name: 'herald_broadcast_queue_depth',
    help: 'Messages queued to send, per broadcast that is sending (read at scrape)',
    labelNames: ['broadcast_id'] as const,
    registers: [this.registry],
  });
  private readonly webhookLag = new Gauge({
    name: 'herald_webhook_ingestion_lag_seconds',
    help: 'Age of the oldest stored webhook event not yet applied; 0 when none waits (read at scrape)',
    registers: [this.registry],
  });
  private readonly databaseUp = new Gauge({
    name: 'herald_database_up',
    help: "1 when this scrape's database reads succeeded, else 0 (the database gauges then keep no value)",
    registers: [this.registry],
  });

  constructor(private readonly pool: Pool) {
    this.registry.registerMetric(messagesSent);
    this.registry.registerMetric(statusRepairs);
    collectDefaultMetrics({ register: this.registry, prefix: 'herald_' });
    const poolGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read());
        },
      });
    poolGauge('herald_db_pool_connections', "Connections the process's pool holds", () => pool.totalCount);
    poolGauge('herald_db_pool_idle_connections', 'Pool connections idle', () => pool.idleCount);
    poolGauge(
      'herald_db_pool_waiting_clients',
      'Queries waiting for a pool connection',
      () => pool.waitingCount,
    );
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  countImportRows(created: number, updated: number): void {
    this.importRows.inc({ kind: 'created' }, created);
    this.importRows.inc({ kind: 'updated' }, updated);
  }

  /** Reads the database gauges, then answers the exposition text. A database that is away costs only them. */
  async scrape(): Promise<string> {
    try {
      await Promise.all([this.readQueueDepth(), this.readWebhookLag()]);
      this.databaseUp.set(1);
    } catch {
      this.queueDepth.reset();
      this.webhookLag.reset();
      this.databaseUp.set(0);
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private async readQueueDepth(): Promise<void> {
    // The partial queue index (broadcast_id, next_attempt_at) where state = 'queued' answers it alone.
    const { rows } = await this.pool.query<{ broadcast_id: string; n: number }>(
      `select m.broadcast_id::text, count(*)::int as n
               from broadcasts b join broadcast_messages m on m.broadcast_id = b.id and m.state = 'queued'
              where b.status = 'sending'
              group by m.broadcast_id`,
    );
    this.queueDepth.reset();
    for (const row of rows) this.queueDepth.set({ broadcast_id: row.broadcast_id }, row.n);
  }

  private async readWebhookLag(): Promise<void> {
    // Ids grow with time: the partial index of unapplied events gives the oldest in one probe.
    const { rows } = await this.pool.query<{ lag: number }>(
      `select coalesce(extract(epoch from now() - (
                select received_at from webhook_events where processed_at is null order by id limit 1)), 0)::float8 as lag`,
    );
    this.webhookLag.set(Math.max(0, rows[0]?.lag ?? 0));
  }
}
