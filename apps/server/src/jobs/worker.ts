import { hostname } from 'node:os';
import PgBoss from 'pg-boss';
import { BroadcastEngine } from '../features/broadcasts/sending/broadcast-engine';
import { BROADCASTS_DUE_CHANNEL } from '../features/broadcasts/broadcasts-service';
import { startEngineLoop } from '../features/broadcasts/sending/engine-loop';
import { MessageSender } from '../features/broadcasts/sending/message-sender';
import {
  newestEventId,
  runStatusRepair,
  STATUS_REPAIR_CRON,
  STATUS_REPAIR_QUEUE,
} from '../features/broadcasts/statuses/status-repair';
import { loadRateCard } from '../features/pricing/rate-card';
import {
  BroadcastMailer,
  BROADCAST_MAIL_CRON,
  BROADCAST_MAIL_QUEUE,
} from '../features/notifications/broadcast-mail';
import { removeExpiredData, RETENTION_CRON, RETENTION_QUEUE } from '../features/retention/data-retention';
import { SecretBox } from '../security/secret-box';
import type { Pool } from '../db/pool';
import { createWebhookProcessor } from '../webhook-handlers';
import { HEARTBEAT_CRON, HEARTBEAT_QUEUE, recordHeartbeat } from './heartbeat';
import { WEBHOOK_SWEEP_QUEUE } from './job-schema';

export { WEBHOOK_SWEEP_QUEUE };

export interface Worker {
  boss: PgBoss;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss and the job handlers. pg-boss's schema and queues are made by `migrate` as the owner
 * (jobs/job-schema.ts): the worker runs as the application role, which may not create them (decision 018).
 * The heartbeat is scheduled every minute and also sent once at start, so a fresh worker proves itself at once.
 */
export async function startWorker(options: {
  databaseUrl: string;
  pool: Pool;
  onError?: (error: Error) => void;
  /** What the jobs report (the retention's removals, no mail server); console.log when not given. */
  onInfo?: (message: string) => void;
  /** Sending broadcasts needs the Cloud API and the key that opens business tokens. */
  broadcasts?: {
    graphApiBase: string;
    graphVersion: string;
    encryptionKey: string;
    leaseSeconds?: number;
    unconfirmedTimeoutSeconds?: number;
    marketingLimitRetries?: number;
    /** The rate card spend caps are priced with (RATE_CARD_FILE); the shipped one when absent. */
    rateCardFile?: string;
  };
  /** The broadcast-completed e-mail (SMTP_URL, SMTP_FROM); without smtpUrl none is sent. */
  mail?: { smtpUrl?: string; from: string };
}): Promise<Worker> {
  const workerId = `${hostname()}:${process.pid}`;
  // migrate: false — pg-boss only checks its schema version; an outdated schema stops the worker with
  // 'pg-boss database requires migrations' instead of a permission error halfway through a migration.
  const boss = new PgBoss({ connectionString: options.databaseUrl, max: 4, migrate: false });
  // pg-boss reports a lost connection (a database restart) here and keeps polling; without a listener the
  // 'error' event would end the process (decision 021).
  const onError = options.onError ?? ((error: Error) => console.warn(`worker: ${error.message}`));
  boss.on('error', (error) => onError(error));
  const onInfo = options.onInfo ?? ((message: string) => console.log(`worker: ${message}`));
  await boss.start();
  await boss.createQueue(HEARTBEAT_QUEUE);
  await boss.work(HEARTBEAT_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
    await recordHeartbeat(options.pool, workerId);
  });
  await boss.schedule(HEARTBEAT_QUEUE, HEARTBEAT_CRON);
  await boss.send(HEARTBEAT_QUEUE, {});

  const webhooks = createWebhookProcessor(options.pool);
  await boss.createQueue(WEBHOOK_SWEEP_QUEUE);
  await boss.work(WEBHOOK_SWEEP_QUEUE, async () => {
    await webhooks.drainAll();
  });
  await boss.schedule(WEBHOOK_SWEEP_QUEUE, '* * * * *');

  // The repair sweep: rows left below a status Herald processed are moved forward (decision 068). Its place in
  // webhook_events travels in its schedule's data, which each cron job carries: whichever worker runs next
  // goes on from there, and a restart keeps it.
  await boss.createQueue(STATUS_REPAIR_QUEUE);
  const repairPlace = (await boss.getSchedules()).find((s) => s.name === STATUS_REPAIR_QUEUE)?.data;
  await boss.work<{ afterEventId?: number }>(STATUS_REPAIR_QUEUE, async ([job]) => {
    const afterId = job?.data?.afterEventId ?? (await newestEventId(options.pool));
    const run = await runStatusRepair(options.pool, afterId, {
      warn: (message) => onError(new Error(message)),
    });
    await boss.schedule(STATUS_REPAIR_QUEUE, STATUS_REPAIR_CRON, { afterEventId: run.lastEventId });
  });
  await boss.schedule(STATUS_REPAIR_QUEUE, STATUS_REPAIR_CRON, repairPlace ?? {});

  // Customer Settings' retention, daily; each run deletes in short batches (decision 041).
  await boss.createQueue(RETENTION_QUEUE);
  await boss.work(RETENTION_QUEUE, async () => {
    const run = await removeExpiredData(options.pool);
    if (run.messages + run.replies > 0)
      onInfo(`retention removed ${run.messages} message rows and ${run.replies} replies`);
  });
  await boss.schedule(RETENTION_QUEUE, RETENTION_CRON);

  // 'Notify Customers via Email': the e-mails of completed broadcasts, outside any engine transaction (decision 042).
  const mailer = new BroadcastMailer({
    pool: options.pool,
    smtpUrl: options.mail?.smtpUrl,
    from: options.mail?.from ?? 'Herald <herald@localhost>',
    log: {
      info: onInfo,
      warn: (message) => onError(new Error(message)),
    },
  });
  await boss.createQueue(BROADCAST_MAIL_QUEUE);
  await boss.work(BROADCAST_MAIL_QUEUE, async () => {
    await mailer.sendPending();
  });
  await boss.schedule(BROADCAST_MAIL_QUEUE, BROADCAST_MAIL_CRON);

  let engineLoop: { stop(): Promise<void> } | undefined;
  if (options.broadcasts) {
    const sender = new MessageSender(options.broadcasts.graphApiBase, options.broadcasts.graphVersion);
    const log = {
      info: () => undefined,
      error: (details: object, message: string) => {
        const { err, ...rest } = details as { err?: Error };
        const context = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
        onError(new Error(`${message}: ${err?.message ?? 'unknown error'}${context}`));
      },
    };
    const engine = new BroadcastEngine({
      pool: options.pool,
      sender,
      secrets: new SecretBox(options.broadcasts.encryptionKey),
      log,
      leaseSeconds: options.broadcasts.leaseSeconds,
      unconfirmedTimeoutSeconds: options.broadcasts.unconfirmedTimeoutSeconds,
      marketingLimitRetries: options.broadcasts.marketingLimitRetries,
      rateCard: loadRateCard(options.broadcasts.rateCardFile),
    });
    const loop = await startEngineLoop(engine, options.databaseUrl, log);
    engineLoop = {
      async stop() {
        await loop.stop();
        sender.close();
      },
    };
  }
  return {
    boss,
    // A short graceful window: jobs are idempotent or leased, so a cut-off job is simply retried later.
    async stop() {
      await engineLoop?.stop();
      // The leases are released: wake the other workers' engines so one takes the numbers over at once
      // rather than at its next tick (graceful shutdown, decision 044).
      if (engineLoop) {
        await options.pool
          .query(`select pg_notify('${BROADCASTS_DUE_CHANNEL}', 'handoff')`)
          .catch(() => undefined);
      }
      await boss.stop({ graceful: true, wait: true, timeout: 2_000 });
      await webhooks.stop();
      mailer.close();
    },
  };
}
