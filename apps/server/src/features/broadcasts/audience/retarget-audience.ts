import { retargetStates, type BroadcastAudience } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { HttpError } from '../../../http-error';
import type { OwnedWaba } from '../../../owned-waba';

/**
 * The contacts a retarget audience names now (decision 037): the recipients of the account's broadcast
 * `broadcast_id` whose message matches the report filter, still contacts of the account and not opted out,
 * each once, in id order. With `narrow` (the request's `recipients` too): only those carrying one of its tags
 * (null tags: everyone), sampled to its percentage in a fixed hash order. Another account's broadcast is not
 * found (404, as every resource of another account).
 */
export async function retargetContactIds(
  pool: Pool,
  waba: OwnedWaba,
  audience: BroadcastAudience,
  narrow: { tagIds: number[] | null; percentage: number } = { tagIds: null, percentage: 100 },
): Promise<number[]> {
  const found = await pool.query('select 1 from broadcasts where id = $1 and waba_account_id = $2', [
    audience.broadcast_id,
    waba.id,
  ]);
  if (found.rowCount === 0) throw HttpError.field(404, 'audience.broadcast_id', 'Broadcast not found');
  const { rows } = await pool.query<{ ids: number[] }>(
    `with matching as materialized (
       select c.id
         from contacts c
        where c.waba_account_id = $1
          and c.opted_out_at is null
          and c.id in (select m.contact_id from broadcast_messages m
                        where m.waba_account_id = $1 and m.broadcast_id = $2
                          and ($3::text[] is null or m.state = any($3::text[]))
                          and ($4::boolean is null or (m.reply_id is not null) = $4)
                          and ($7::boolean is null or (m.clicked_at is not null) = $7))
          and ($5::bigint[] is null
               or exists (select 1 from contact_tags ct
                           where ct.waba_account_id = c.waba_account_id and ct.contact_id = c.id
                             and ct.tag_id = any($5::bigint[])))),
     sampled as (
       select id from matching order by md5(id::text), id
        limit (select round(count(*) * $6::numeric / 100) from matching))
     select coalesce(array_agg(id::int order by id), '{}') as ids from sampled`,
    [
      waba.id,
      audience.broadcast_id,
      retargetStates(audience.filter.outcome),
      audience.filter.replied ?? null,
      narrow.tagIds,
      narrow.percentage,
      audience.filter.clicked ?? null,
    ],
  );
  return rows[0]!.ids;
}
