import type { BroadcastAudienceSummary } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { HttpError } from '../../../http-error';
import type { OwnedWaba } from '../../../owned-waba';

/**
 * The audience as stored on the broadcast: all, tags or a segment (chosen when it starts), or a list frozen at
 * creation.
 */
type StoredAudience = {
  type?: string;
  tag_ids?: number[] | null;
  percentage?: number;
  leave_out_us?: boolean;
  /** A list: the earlier broadcast it was taken from. */
  from_broadcast_id?: number;
  /** A segment: which, and its rules in words as they were at creation. */
  segment_id?: number;
  segment_name?: string;
  rules?: string[];
};

/**
 * The head of a delivery report: the broadcast of the account (404 otherwise) and who it goes to, so the report
 * of a scheduled broadcast, which has no recipient yet, says who will receive it.
 */
export async function findReportedBroadcast(pool: Pool, waba: OwnedWaba, id: number) {
  const { rows } = await pool.query<{
    id: number;
    name: string;
    template_name: string;
    status: string;
    scheduled_at: Date;
    total_recipients: number;
    audience: StoredAudience;
    tags: string[];
    spend_cap: string | null;
    link_destination: string | null;
  }>(
    `select b.id::int, b.name, b.template_name, b.status, b.scheduled_at, b.total_recipients, b.audience,
            b.spend_cap::text, b.link_destination,
            array(select t.name from tags t
                   where t.waba_account_id = b.waba_account_id
                     and t.id in (select jsonb_array_elements_text(
                                      case jsonb_typeof(b.audience->'tag_ids') when 'array' then b.audience->'tag_ids' else '[]' end
                                    )::bigint)
                   order by t.name) as tags
       from broadcasts b where b.id = $1 and b.waba_account_id = $2`,
    [id, waba.id],
  );
  const found = rows[0];
  if (!found) throw HttpError.field(404, 'id', 'Broadcast not found');
  const stored = found.audience;
  const type =
    stored.type === 'all' || stored.type === 'filtered' || stored.type === 'segment' ? stored.type : 'list';
  const audience: BroadcastAudienceSummary = {
    type,
    tags: type === 'filtered' ? found.tags : [],
    percentage: stored.percentage ?? 100,
    leave_out_us: stored.leave_out_us ?? false,
    from_broadcast_id: type === 'list' ? (stored.from_broadcast_id ?? null) : null,
    recipients: found.total_recipients,
    segment:
      type === 'segment'
        ? { id: stored.segment_id!, name: stored.segment_name!, rules: stored.rules ?? [] }
        : null,
  };
  return {
    id: found.id,
    name: found.name,
    template_name: found.template_name,
    status: found.status,
    scheduled: found.scheduled_at.toISOString(),
    audience,
    spend_cap: found.spend_cap === null ? null : Number(found.spend_cap),
    link_destination: found.link_destination,
  };
}
