import { MARKETING_TTL, metaErrorCodes } from '@herald/contracts';

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
  /** What Meta says it charged (`pricing.cost.amount`, USD), stated for max-price messages; null elsewhere. */
  pricingCost: number | null;
  /** When Meta says it happened (the status's `timestamp`, Unix seconds); null where absent or not a number. */
  at: number | null;
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
  statuses.map((s) => s.at),
  statuses.map((s) => s.pricingCost),
];

/**
 * A delivery Meta reported outranks a failure it reported for the same message, in either order (decision 078):
 * a row delivered or read stays so and records the failure's error and time; a failed row Meta then reports
 * delivered moves to delivered (or read) and keeps its error. So every order of one message's statuses, in one
 * batch or several, ends in the same row, and no time Meta reported is dropped.
 *
 * `t` is a status resolved to its row (STATUS_TARGETS_SQL): `status`, `wamid`, and `failure` with
 * `failure_code` and `failure_title`: whether a failure of that row is among the statuses resolved with it.
 */

/** The status moves the row up sent < delivered < read: from a state not final, or from a failure Meta reported. */
export const STATUS_RAISES_ROW = `(
  t.status <> 'failed'
  and m.state not in ('read', 'limited', 'not_on_whatsapp')
  -- Only a delivery of the very message that failed (or expired) lifts a failure (Herald's own failures carry
  -- no wamid).
  and (m.state not in ('failed', 'expired') or (t.status in ('delivered', 'read') and m.wamid = t.wamid))
  and coalesce(array_position(array['sent', 'delivered', 'read'], m.state), 0)
      < array_position(array['sent', 'delivered', 'read'], t.status))`;

/** The status is a failure (none of the statuses resolved with it a delivery) of a row Meta has not delivered. */
export const STATUS_FAILS_ROW = `(
  t.status = 'failed' and m.state not in ('failed', 'expired', 'delivered', 'read', 'limited', 'not_on_whatsapp'))`;

/** The row already holds the failure Meta reported for it: failed (or expired), or delivered or read with an error kept. */
export const ROW_HAS_FAILURE = `(
  m.state in ('failed', 'expired')
  or (m.state in ('delivered', 'read') and (m.error_code is not null or m.error_title is not null)))`;

/**
 * Whether status `t` changes message row `m`: the one rule (decision 022, 078), shared by the status update
 * (applyStatuses) and the repair sweep's search for rows that stand below a status (status-repair.ts).
 */
export const STATUS_MOVES_ROW = `(
  -- A status of an earlier attempt (a limited message sent again has a new wamid) does not move this one.
  (t.wamid is null or m.wamid is null or m.wamid = t.wamid)
  and (${STATUS_RAISES_ROW}
       or ${STATUS_FAILS_ROW}
       -- A failure after (or with) a delivery: recorded on the delivered row, its state unchanged.
       or (t.failure and m.state in ('delivered', 'read') and not ${ROW_HAS_FAILURE})))`;

/**
 * Resolves each status to its message row of the account its WABA names (by the row id Herald sent, else by
 * wamid: both keys start with the account) and keeps the furthest per row. `targets` holds every status found,
 * with its place in the parameters (`status_index`, from 1) and the first failure among the statuses found for
 * its row (`failure`, `failure_code`, `failure_title`, `failure_at`); `best` one per row: read, else delivered,
 * else failed, else sent (a delivery outranks a failure, decision 078). Takes statusParams.
 */
export const STATUS_TARGETS_SQL = `
  with incoming as (
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[],
                         $7::boolean[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::numeric[])
                         with ordinality
              as x(waba_id, row_id, wamid, status, code, title,
                   billable, pricing_model, pricing_category, pricing_type, at, pricing_cost, status_index)),
  found_targets as (
    select found.id, found.waba_account_id, found.broadcast_id, i.*,
           case i.status when 'read' then 4 when 'delivered' then 3 when 'failed' then 2 else 1 end as rank
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
  targets as (
    select f.*, bool_or(f.status = 'failed') over (partition by f.id) as failure,
           first_value(case when f.status = 'failed' then f.code end) over first_failure as failure_code,
           first_value(case when f.status = 'failed' then f.title end) over first_failure as failure_title,
           first_value(case when f.status = 'failed' then f.at end) over first_failure as failure_at,
           -- The charge Meta stated in any status of the row (delivered or read), whichever is the best one.
           max(f.pricing_cost) over (partition by f.id) as stated_cost
      from found_targets f
    window first_failure as (partition by f.id order by f.status = 'failed' desc, f.status_index)),
  best as (select distinct on (id) * from targets order by id, rank desc, status_index)`;

/**
 * The failure is WhatsApp dropping the message at the end of its time-to-live (decision 093): Meta names no
 * error code for it, so it is known by time, a failure Meta reports at or after the request plus the broadcast's
 * time-to-live (less five minutes for the two clocks), Meta's 30 days when none was set (the same for marketing and
 * utility templates). The broadcast is read only for a failure (CASE is lazy).
 */
export const FAILURE_IS_EXPIRY = `(
  t.failure_at is not null and m.requested_at is not null
  and to_timestamp(t.failure_at) >= m.requested_at - interval '5 minutes' + make_interval(secs =>
        coalesce((select b.message_ttl_seconds from broadcasts b
                   where b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id), ${MARKETING_TTL.defaultSeconds})))`;
