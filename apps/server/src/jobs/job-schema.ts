import PgBoss from 'pg-boss';
import { STATUS_REPAIR_QUEUE } from '../features/broadcasts/statuses/status-repair';
import { BROADCAST_MAIL_QUEUE } from '../features/notifications/broadcast-mail';
import { RETENTION_QUEUE } from '../features/retention/data-retention';
import { HEARTBEAT_QUEUE } from './heartbeat';

/** pg-boss's schema (its default name, stated here because the app role's grants name it). */
export const JOB_SCHEMA = 'pgboss';

/** Sweeps webhook events the API stored but did not get to apply (a crash between store and apply). */
export const WEBHOOK_SWEEP_QUEUE = 'webhook-sweep';

/** pg-boss's own queue through which cron schedules (boss.schedule) hand out their jobs. */
const SCHEDULE_QUEUE = '__pgboss__send-it';

/**
 * Every queue the worker uses. Creating a queue is DDL in pg-boss 10 (a partition table per queue), which the
 * application role may not do, so each queue is created here, by the owner, at migrate time; the worker's
 * own createQueue calls then find them and change nothing.
 */
export const JOB_QUEUES = [
  HEARTBEAT_QUEUE,
  WEBHOOK_SWEEP_QUEUE,
  RETENTION_QUEUE,
  BROADCAST_MAIL_QUEUE,
  STATUS_REPAIR_QUEUE,
  SCHEDULE_QUEUE,
] as const;

/**
 * Creates or upgrades pg-boss's schema and Herald's queues, as the database owner (part of `migrate`), so
 * that the worker can run as a role without DDL rights (decision 018). pg-boss takes its own advisory lock,
 * so concurrent calls are safe.
 */
export async function installJobSchema(ownerUrl: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: ownerUrl,
    schema: JOB_SCHEMA,
    max: 1,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  let failure: Error | undefined;
  boss.on('error', (error) => (failure ??= error));
  await boss.start();
  try {
    for (const queue of JOB_QUEUES) await boss.createQueue(queue);
  } finally {
    await boss.stop({ graceful: false, wait: true, timeout: 1_000 });
  }
  if (failure) throw failure;
}
