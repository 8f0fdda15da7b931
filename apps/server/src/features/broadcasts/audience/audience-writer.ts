import type { FollowUpUnless, SegmentDefinition } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { withTransaction } from '../../../db/transaction';
import { audienceQuery } from './audience-sql';
import type { EngineLog } from '../sending/engine-log';
import { followUpContactIds, PARENT_DONE_SQL } from '../follow-ups';
import { insertAudience, insertAudienceSlice } from '../message-rows';
import { segmentWhereSql } from '../../segments/index';

/** Message rows written when a broadcast starts, in the starting transaction: the first seconds of sending. */
export const FIRST_ROWS = 1_000;
/** Message rows written per transaction afterwards, from the frozen audience. */
export const SLICE_ROWS = 20_000;

/**
 * Starts one due broadcast: freezes its whole audience (matching contacts, sampled to round(n × p / 100) in a
 * deterministic hash order) in one statement, which also writes the first FIRST_ROWS message rows; the rest
 * of the frozen audience waits in broadcast_audiences and is written in slices while the first ones send.
 * So the first message leaves within a fraction of a second however large the audience is.
 */
export async function startNextDueBroadcast(
  pool: Pool,
  firstRows: number,
  log?: EngineLog,
): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const due = await client.query<{
      id: number;
      waba_account_id: number;
      audience: {
        type: string;
        tag_ids?: number[] | null;
        /** A retarget audience's list, frozen at creation (decision 037). */
        contact_ids?: number[];
        percentage: number;
        leave_out_us?: boolean;
        /** A segment's rules, kept at creation (decision 100): its members are chosen now, by them. */
        definition?: SegmentDefinition;
      };
      follow_up_of: number | null;
      follow_up_unless: FollowUpUnless | null;
    }>(
      `select b.id::int, b.waba_account_id::int, b.audience, b.follow_up_of::int, b.follow_up_unless
         from broadcasts b
        where b.status = 'scheduled' and b.scheduled_at <= now() and ${PARENT_DONE_SQL}
        order by b.scheduled_at, b.id limit 1 for no key update of b skip locked`,
    );
    const broadcast = due.rows[0];
    if (!broadcast) {
      await client.query('rollback');
      return false;
    }
    // A follow-up's list is chosen now, from what its parent's recipients did (follow-ups.ts).
    const contactIds =
      broadcast.follow_up_of !== null
        ? await followUpContactIds(
            client,
            broadcast.waba_account_id,
            broadcast.follow_up_of,
            broadcast.follow_up_unless!,
          )
        : broadcast.audience.contact_ids;
    const audience = audienceQuery(
      contactIds
        ? { kind: 'list', contactIds }
        : broadcast.audience.type === 'segment'
          ? { kind: 'segment', where: segmentWhereSql(broadcast.audience.definition!, 'c') }
          : { kind: 'tags', tagIds: broadcast.audience.tag_ids ?? null },
    );
    const total = await insertAudience(client, audience.sql, [
      broadcast.waba_account_id,
      audience.ids,
      broadcast.audience.leave_out_us ?? false,
      broadcast.id,
      broadcast.audience.percentage,
      firstRows,
    ]);
    await client.query(
      `update broadcasts set status = $2, total_recipients = $3, started_at = now(),
              completed_at = case when $3 = 0 then now() end
        where id = $1`,
      [broadcast.id, total === 0 ? 'completed' : 'sending', total],
    );
    await client.query('commit');
    log?.info({ broadcastId: broadcast.id, recipients: total }, 'broadcast started');
    return true;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Writes a frozen audience's remaining message rows, a slice per transaction, in hash order. The audience
 * row is locked per slice (SKIP LOCKED): of several workers only one writes a slice, and a crash loses at
 * most an uncommitted slice. The last slice deletes the audience row, which lets the broadcast complete.
 */
export async function writeAudienceSlices(
  pool: Pool,
  broadcastId: number,
  sliceRows: number,
  stopped: () => boolean,
): Promise<void> {
  while (!stopped()) {
    const done = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ written: number; total: number }>(
        `select written, cardinality(contact_ids) as total from broadcast_audiences
          where broadcast_id = $1 for update skip locked`,
        [broadcastId],
      );
      const audience = rows[0];
      if (!audience) return true; // written completely, or another worker holds it
      const end = Math.min(audience.total, audience.written + sliceRows);
      await insertAudienceSlice(client, broadcastId, audience.written, end);
      if (end >= audience.total) {
        await client.query('delete from broadcast_audiences where broadcast_id = $1', [broadcastId]);
        return true;
      }
      await client.query('update broadcast_audiences set written = $2 where broadcast_id = $1', [
        broadcastId,
        end,
      ]);
      return false;
    });
    if (done) return;
  }
}
