import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';
import { withTransaction } from '../../../db/transaction';
import { statusRepairs } from '../../metrics';
import { type IncomingStatus, STATUS_MOVES_ROW, STATUS_TARGETS_SQL, statusParams } from '../message-rows';
import { reapplyStatuses, statusesOf } from './message-status-webhooks';

/** pg-boss queue of the repair sweep (made at migrate time: jobs/job-schema.ts). */
export const STATUS_REPAIR_QUEUE = 'status-repair';
/** Every minute, like the webhook sweep: a lost status is put right within about a minute. */
export const STATUS_REPAIR_CRON = '* * * * *';
/** Events per pass: each pass is one short transaction whatever the backlog. */
export const STATUS_REPAIR_EVENTS = 1_000;
/** Statuses per statement when looking for rows behind: a payload may carry hundreds. */
const STATUSES_PER_QUERY = 5_000;

/** A message row that stands below a status Herald processed for it: applied now, the status would move it. */
export interface RowBehind {
  accountId: number;
  id: number;
  broadcastId: number;
  state: string;
  /** The row's wamid (null before its sender wrote one). */
  wamid: string | null;
  /** The stored status that would move it, as the webhook batch read it. */
  status: IncomingStatus;
  eventId: number;
}

type Db = Pool | PoolClient;

/** A stored status with the event that carried it. */
interface StoredStatus {
  eventId: number;
  status: IncomingStatus;
}

/**
 * The statuses of processed events with ids in (afterId, throughId], read from the payloads as the webhook batch
 * reads them: each entry's `messages` changes, then statusesOf, the applier's own reading. Events never applied
 * (given up after their attempts) are skipped, as their statuses were.
 */
async function storedStatuses(db: Db, afterId: number, throughId: number): Promise<StoredStatus[]> {
  const { rows } = await db.query<{ event_id: string; waba_id: string; value: unknown }>(
    `select e.id as event_id, coalesce(entry->>'id', '') as waba_id, change->'value' as value
       from webhook_events e
       cross join lateral jsonb_array_elements(
         case when jsonb_typeof(e.payload->'entry') = 'array' then e.payload->'entry' else '[]' end) entry
       cross join lateral jsonb_array_elements(
         case when jsonb_typeof(entry->'changes') = 'array' then entry->'changes' else '[]' end) change
      where e.id > $1 and e.id <= $2 and e.processed_at is not null
        and jsonb_typeof(change->'field') = 'string' and change->>'field' = 'messages'
      order by e.id`,
    [afterId, throughId],
  );
  return rows.flatMap((row) =>
    statusesOf({ wabaId: row.waba_id, field: 'messages', value: row.value }).map((status) => ({
      eventId: Number(row.event_id),
      status,
    })),
  );
}

/**
 * Which of the statuses would move their rows if applied now: each resolved to its row exactly as the webhook
 * batch resolves it (within the account the entry's WABA names; by the row id Herald sent, else the wamid) and
 * judged by the batch's own rule (STATUS_MOVES_ROW: ranks, terminal states, an earlier attempt's wamid).
 */
async function rowsBehind(db: Db, stored: StoredStatus[]): Promise<RowBehind[]> {
  const behind: RowBehind[] = [];
  for (let start = 0; start < stored.length; start += STATUSES_PER_QUERY) {
    const chunk = stored.slice(start, start + STATUSES_PER_QUERY);
    const { rows } = await db.query<Omit<RowBehind, 'status' | 'eventId'> & { n: string }>(
      `${STATUS_TARGETS_SQL}
       select t.status_index as n, m.waba_account_id::int as "accountId", m.id::int, m.broadcast_id::int as "broadcastId",
              m.state, m.wamid
         from targets t join broadcast_messages m on m.waba_account_id = t.waba_account_id and m.id = t.id
        where ${STATUS_MOVES_ROW}
        order by m.id, t.status_index`,
      statusParams(chunk.map((s) => s.status)),
    );
    for (const { n, ...row } of rows) {
      const found = chunk[Number(n) - 1]!;
      behind.push({ ...row, status: found.status, eventId: found.eventId });
    }
  }
  return behind;
}

/**
 * The next events to examine after `afterId`: at most `limit`; with `settledOnly`, none at or past the oldest
 * event still waiting to be applied (its statuses, and those of events a batch holds now, are not settled yet).
 * Answers the last id of the range (null when there is none) and how many events it holds.
 */
async function nextEvents(
  db: Db,
  afterId: number,
  limit: number,
  settledOnly: boolean,
): Promise<{ last: number | null; events: number }> {
  const { rows } = await db.query<{ last: string | null; events: number }>(
    `with waiting as (select min(id) as id from webhook_events where processed_at is null and attempts < 5)
     select max(id) as last, count(*)::int as events from (
       select e.id from webhook_events e, waiting
        where e.id > $1 and (not $3::boolean or waiting.id is null or e.id < waiting.id)
        order by e.id limit $2) range`,
    [afterId, limit, settledOnly],
  );
  const last = rows[0]?.last;
  return { last: last === null || last === undefined ? null : Number(last), events: rows[0]?.events ?? 0 };
}

/** Every row of the database that stands below a status Herald processed for it (the tests' invariant). */
export async function findAllRowsBehind(db: Db): Promise<RowBehind[]> {
  const behind: RowBehind[] = [];
  for (let afterId = 0; ;) {
    const { last } = await nextEvents(db, afterId, STATUS_REPAIR_EVENTS, false);
    if (last === null) return behind;
    behind.push(...(await rowsBehind(db, await storedStatuses(db, afterId, last))));
    afterId = last;
  }
}

/** The sweep's audit (status_repairs): what it moved, kept after the worker that moved it has gone. */
async function recordRepairs(client: Db, rows: RowBehind[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(
    `insert into status_repairs
       (waba_account_id, broadcast_message_id, broadcast_id, wamid, webhook_event_id, state_before, status)
     select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[])`,
    [
      rows.map((row) => row.accountId),
      rows.map((row) => row.id),
      rows.map((row) => row.broadcastId),
      rows.map((row) => row.wamid ?? row.status.wamid ?? null),
      rows.map((row) => row.eventId),
      rows.map((row) => row.state),
      rows.map((row) => row.status.status),
    ],
  );
}

export interface RepairPass {
  /** Where the next pass starts. */
  lastEventId: number;
  /** Events this pass examined. */
  events: number;
  /** Rows it moved forward, as they stood before. */
  repaired: RowBehind[];
}

/**
 * One pass of the sweep (decision 068): examines the next `limit` events after `afterId`, finds the rows that
 * stand below one of their statuses, and applies those statuses again through the webhook batch's own step
 * (reapplyStatuses: broadcasts, then rows, locked in id order; the same update and rule), in one transaction.
 * Logs each row it moved and counts it in herald_status_repairs_total.
 */
export async function repairStatusPass(
  pool: Pool,
  afterId: number,
  log: { warn: (message: string) => void },
  limit = STATUS_REPAIR_EVENTS,
): Promise<RepairPass> {
  const { last, events } = await nextEvents(pool, afterId, limit, true);
  if (last === null) return { lastEventId: afterId, events: 0, repaired: [] };
  const repaired = await withTransaction(pool, async (client): Promise<RowBehind[]> => {
    const found = await rowsBehind(client, await storedStatuses(client, afterId, last));
    if (found.length === 0) return [];
    const statuses = found.map((row) => ({ eventId: row.eventId, status: row.status }));
    await reapplyStatuses(
      client,
      statuses.map((s) => s.status),
    );
    // Read again under the rows' locks: a row still behind was not moved (and is not reported as repaired).
    const still = new Set((await rowsBehind(client, statuses)).map((row) => row.id));
    const moved = new Map<number, RowBehind>();
    for (const row of found) if (!still.has(row.id) && !moved.has(row.id)) moved.set(row.id, row);
    await recordRepairs(client, [...moved.values()]);
    return [...moved.values()];
  });
  for (const row of repaired) {
    log.warn(
      `status repair: message ${row.id} (broadcast ${row.broadcastId}, account ${row.accountId}, wamid ` +
        `${row.wamid ?? row.status.wamid ?? 'none'}) stood at '${row.state}' below its stored '${row.status.status}' ` +
        `(webhook event ${row.eventId}); applied again`,
    );
  }
  statusRepairs.inc(repaired.length);
  return { lastEventId: last, events, repaired };
}

/**
 * The sweep's run: passes from `afterId` until it has caught up or `budgetMs` is spent (a busy system stores
 * many events a minute, more than one pass takes). Answers where the next run starts.
 */
export async function runStatusRepair(
  pool: Pool,
  afterId: number,
  log: { warn: (message: string) => void },
  budgetMs = 30_000,
): Promise<{ lastEventId: number; repaired: number }> {
  const started = Date.now();
  let cursor = afterId;
  let repaired = 0;
  for (;;) {
    const pass = await repairStatusPass(pool, cursor, log);
    cursor = pass.lastEventId;
    repaired += pass.repaired.length;
    if (pass.events < STATUS_REPAIR_EVENTS || Date.now() - started > budgetMs) break;
  }
  return { lastEventId: cursor, repaired };
}

/** Where a sweep with no stored place starts: the newest event, not years of history (decision 068). */
export async function newestEventId(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: string | null }>('select max(id) as id from webhook_events');
  return Number(rows[0]?.id ?? 0);
}
