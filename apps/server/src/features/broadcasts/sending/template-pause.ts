import { META_ERROR } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';
import { withTransaction } from '../../../db/transaction';
import { lockBroadcasts } from '../broadcast-counts';

/** NOTIFY'd with a broadcast id when it stops sending, so a sender's batch in flight stops too (send-gate.ts). */
export const BROADCASTS_HALTED_CHANNEL = 'herald_broadcasts_halted';

/** A send Meta refused because the template is paused (132015) or disabled (132016): nothing was sent. */
export interface TemplatePausedResult {
  id: number;
  state: 'template_paused';
  broadcastId: number;
  code: number;
  /** Meta's words for it (error_data.details, else the message without its "(#132015)"). */
  why: string;
}

/** A template webhook that pauses broadcasts, as collected by its event for the batch's end. */
export type TemplatePause =
  | { wabaId: string; metaTemplateId: string; verb: 'paused' | 'disabled'; why: string | null }
  | {
      wabaId: string;
      metaTemplateId: string;
      /** Meta announced a category change (template_category_update, a day ahead): `category` from `at`. */
      verb: 'recategorised';
      category: string;
      /** When it applies; null when Meta gave no date (it is coming now). */
      at: Date | null;
    };

/** "Dec 1, 2026, 09:30 UTC": Meta's date as the reason says it (the server has no user's time zone). */
const utcTime = (at: Date) =>
  `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}, ${at
    .toISOString()
    .slice(11, 16)} UTC`;

/**
 * The history's reason for a broadcast held because its template changes category before it would end; one
 * held before it started goes back to its schedule when resumed.
 */
export function categoryHoldReason(templateName: string, category: string, at: Date | null, started = true) {
  return (
    `WhatsApp changes the category of the template ${templateName} to ${category}` +
    `${at ? ` on ${utcTime(at)}` : ''}, before this broadcast would end: messages sent from then are ` +
    `routed and charged as ${category}. ` +
    (started ? 'Resume to send the rest anyway' : 'Resume to send it at its scheduled time anyway')
  );
}

/** The history's reason, e.g. "WhatsApp paused the template summer_sale: Your template's quality is low". */
export function templatePauseReason(verb: 'paused' | 'disabled', templateName: string, why: string | null) {
  return `WhatsApp ${verb} the template ${templateName}${why ? `: ${why}` : ''}`;
}

/** The broadcasts the collected pauses stop, with their reasons. A plain read: the caller locks them next. */
export async function broadcastsToPause(
  client: PoolClient,
  pauses: TemplatePause[],
): Promise<Array<{ id: number; reason: string }>> {
  if (pauses.length === 0) return [];
  const coming = (p: TemplatePause) => (p.verb === 'recategorised' ? p : null);
  // A category change holds only a broadcast that would be sending across it: one sending now whose remaining
  // recipients at its number's rate (80 or 1,000 messages a second) end after the change's date, or one scheduled
  // to start before the date whose recipients at that rate would end after it. One already paused keeps its own
  // reason; one scheduled from the date on is sent (and was estimated) in the coming category.
  const { rows } = await client.query<{ id: number; template_name: string; i: number; started: boolean }>(
    `with rate as (select n.id, case when n.throughput_level = 'HIGH' then 1000.0 else 80.0 end as per_second
                     from phone_numbers n)
     select b.id::int, b.template_name, p.i::int, b.status <> 'scheduled' as started
       from unnest($1::text[], $2::text[], $3::boolean[], $4::timestamptz[])
              with ordinality as p(waba_id, meta_template_id, recategorised, change_at, i)
       join waba_accounts w on w.waba_id = p.waba_id
       join templates t on t.waba_account_id = w.id and t.meta_template_id = p.meta_template_id
       join broadcasts b on b.template_id = t.id and b.waba_account_id = w.id
      where (not p.recategorised and b.status in ('sending', 'paused'))
         or (p.recategorised and b.status = 'sending'
             and (p.change_at is null
                  or now() + make_interval(secs => greatest(0, b.total_recipients
                       - (select count(*) from broadcast_messages m
                           where m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
                             and m.state not in ('queued', 'sending')))
                       / (select r.per_second from rate r where r.id = b.phone_number_id)) >= p.change_at))
         or (p.recategorised and b.status = 'scheduled' and p.change_at is not null
             and b.scheduled_at < p.change_at
             and b.scheduled_at + make_interval(secs => b.total_recipients
                   / (select r.per_second from rate r where r.id = b.phone_number_id)) >= p.change_at)`,
    [
      pauses.map((p) => p.wabaId),
      pauses.map((p) => p.metaTemplateId),
      pauses.map((p) => p.verb === 'recategorised'),
      pauses.map((p) => coming(p)?.at ?? null),
    ],
  );
  const byId = new Map<number, string>();
  for (const row of rows) {
    const pause = pauses[row.i - 1]!;
    byId.set(
      row.id,
      pause.verb === 'recategorised'
        ? categoryHoldReason(row.template_name, pause.category, pause.at, row.started)
        : templatePauseReason(pause.verb, row.template_name, pause.why),
    );
  }
  return [...byId].map(([id, reason]) => ({ id, reason }));
}

/**
 * Pauses broadcasts whose rows this transaction has locked (lockBroadcasts), with their reasons, and tells
 * every sender (NOTIFY, delivered at commit) so a batch in flight sends nothing more for them.
 */
export async function pauseLockedBroadcasts(
  client: PoolClient,
  pauses: Array<{ id: number; reason: string }>,
  from: readonly string[] = ['sending', 'paused'],
): Promise<number[]> {
  if (pauses.length === 0) return [];
  const { rows } = await client.query<{ id: number }>(
    `update broadcasts b set status = 'paused', status_reason = x.reason
       from unnest($1::bigint[], $2::text[]) as x(id, reason)
      where b.id = x.id and b.status = any($3::text[])
      returning b.id::int`,
    [pauses.map((p) => p.id), pauses.map((p) => p.reason), from],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) {
    await client.query(`select pg_notify($1, id::text) from unnest($2::bigint[]) as id`, [
      BROADCASTS_HALTED_CHANNEL,
      ids,
    ]);
  }
  return ids;
}

/** Sends answered 132015/132016: their broadcasts pause (if still sending) with Meta's reason. */
export async function pauseForTemplateAnswers(pool: Pool, results: TemplatePausedResult[]): Promise<void> {
  const first = new Map<number, TemplatePausedResult>();
  for (const result of results) if (!first.has(result.broadcastId)) first.set(result.broadcastId, result);
  const ids = [...first.keys()];
  await withTransaction(pool, async (client) => {
    await lockBroadcasts(client, ids);
    const { rows } = await client.query<{ id: number; template_name: string }>(
      'select id::int, template_name from broadcasts where id = any($1::bigint[])',
      [ids],
    );
    const pauses = rows.map((row) => {
      const result = first.get(row.id)!;
      const verb = result.code === META_ERROR.templateDisabled ? 'disabled' : 'paused';
      return { id: row.id, reason: templatePauseReason(verb, row.template_name, result.why) };
    });
    await pauseLockedBroadcasts(client, pauses, ['sending']);
  });
}

/**
 * Why a paused broadcast may not resume yet: its template is still PAUSED or DISABLED in Herald's copy (the
 * status webhooks keep it). Null when it may. Scoped by the broadcast's own account.
 */
export async function resumeBlockedBy(client: PoolClient, broadcastId: number): Promise<string | null> {
  const { rows } = await client.query<{ name: string; status: string }>(
    `select t.name, t.status from broadcasts b join templates t on t.id = b.template_id and t.waba_account_id = b.waba_account_id
      where b.id = $1`,
    [broadcastId],
  );
  const template = rows[0];
  if (!template || (template.status !== 'PAUSED' && template.status !== 'DISABLED')) return null;
  return template.status === 'PAUSED'
    ? `WhatsApp paused the template ${template.name}: this broadcast can be resumed once WhatsApp reinstates it`
    : `WhatsApp disabled the template ${template.name} for good: this broadcast cannot be resumed; send a new one with another template`;
}
