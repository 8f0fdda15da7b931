import { metaErrorCodes } from '@herald/contracts';

/**
 * The codes of a failure with an outcome of its own, as a SQL list: Meta's rule, read from contracts
 * (meta-outcomes.ts) like the sender's, never re-typed here. Plain integers, so safe in the statement's text.
 */
const codesOf = (outcome: 'limited' | 'not_on_whatsapp') => metaErrorCodes(outcome).map(Number).join(', ');
export const LIMITED_CODES = codesOf('limited');
export const NOT_ON_WHATSAPP_CODES = codesOf('not_on_whatsapp');

/** One status, reduced to what the statement needs; anything not of the expected type becomes null. */
export interface IncomingStatus {
  wabaId: string;
  rowId: string | null;
  wamid: string | null;
  status: string;
  code: number | null;
  title: string | null;
  /** The status's `pricing` (decision 048): stored with the message; null where absent or not as expected. */
  billable: boolean | null;
  pricingModel: string | null;
  pricingCategory: string | null;
  pricingType: string | null;
}

export const statusParams = (statuses: IncomingStatus[]) => [
  statuses.map((s) => s.wabaId),
  statuses.map((s) => s.rowId),
  statuses.map((s) => s.wamid),
  statuses.map((s) => s.status),
  statuses.map((s) => s.code),
  statuses.map((s) => s.title),
  statuses.map((s) => s.billable),
  statuses.map((s) => s.pricingModel),
  statuses.map((s) => s.pricingCategory),
  statuses.map((s) => s.pricingType),
];

/**
 * Whether status `t` moves message row `m` forward: the one rule (decision 022), shared by the status update
 * (applyStatuses) and the repair sweep's search for rows that stand below a status (status-repair.ts).
 */
export const STATUS_MOVES_ROW = `(
  m.state not in ('failed', 'read', 'limited', 'not_on_whatsapp')
  -- A status of an earlier attempt (a limited message sent again has a new wamid) does not move this one.
  and (t.wamid is null or m.wamid is null or m.wamid = t.wamid)
  and (t.status = 'failed'
       or coalesce(array_position(array['sent', 'delivered', 'read'], m.state), 0)
          < array_position(array['sent', 'delivered', 'read'], t.status))
  and not (t.status = 'failed' and m.state = 'delivered'))`;

/**
 * Resolves each status to its message row of the account its WABA names (by the row id Herald sent, else by
 * wamid: both keys start with the account) and keeps the furthest per row. `targets` holds every status found,
 * with its place in the parameters (`status_index`, from 1); `best` one per row. Takes statusParams.
 */
export const STATUS_TARGETS_SQL = `
  with incoming as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[],
                         $7::boolean[], $8::text[], $9::text[], $10::text[]) with ordinality
              as x(waba_id, row_id, wamid, status, code, title,
                   billable, pricing_model, pricing_category, pricing_type, status_index)),
  targets as (
    select found.id, found.waba_account_id, found.broadcast_id, i.*,
           case i.status when 'failed' then 10 when 'read' then 3 when 'delivered' then 2 else 1 end as rank
      from incoming i
      join waba_accounts w on w.waba_id = i.waba_id
      -- One index lookup per status, whatever the statistics say (a join here may walk every message of
      -- the broadcast when they are stale, as after a start).
      cross join lateral (
        select m.id, m.waba_account_id, m.broadcast_id from broadcast_messages m
         where m.waba_account_id = w.id and m.id = case when i.row_id ~ '^[0-9]{1,18}$' then i.row_id::bigint end
        union all
        select m.id, m.waba_account_id, m.broadcast_id from broadcast_messages m
         where m.waba_account_id = w.id and m.wamid = i.wamid
        limit 1) found),
  best as (select distinct on (id) * from targets order by id, rank desc)`;
