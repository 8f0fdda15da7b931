import type { PoolClient } from 'pg';
import type { Pool } from '../../../db/pool';
import type { ContactValues } from '../sending/render-message';
import { inLocked, LIMITED_RETRY_DELAY, LOCKED, onLocked } from './locks';

/** One claimed message row, with what rendering it needs. */
export interface Claimed {
  id: number;
  broadcast_id: number;
  whatsapp_number: string;
  attempts: number;
  contact: ContactValues | null;
  /** The contact replied STOP (or Meta answered 131050) after the audience was frozen. */
  opted_out: boolean;
  /** Its broadcast was waiting for the messaging limit when claimed (a batch that sends clears that). */
  was_waiting?: boolean;
}

/**
 * queued → sending: claims up to `limit` due rows of the number's sending broadcasts (sender-batch.ts's
 * claimBatch says in which order), counting the attempt; FOR UPDATE SKIP LOCKED, so concurrent claimers never
 * share a row and never wait on one.
 */
export async function markSending(pool: Pool, phoneId: number, limit: number): Promise<Claimed[]> {
  const { rows } = await pool.query<Claimed>(
    // Per broadcast, the claim index (broadcast_id, id) where queued hands out the first due rows in order and
    // stops after $2 (decision 061); sorting every queued row instead cost 30 ms per claim at 50,000 queued.
    `with picked as (
       select m.waba_account_id, m.id, m.contact_id, b.was_waiting, b.started_at
         from (select id, started_at, waiting_until is not null as was_waiting from broadcasts
                where phone_number_id = $1 and status = 'sending'
                  and (waiting_until is null or waiting_until <= now())) b
        cross join lateral (
          select m.waba_account_id, m.id, m.contact_id from broadcast_messages m
           where m.broadcast_id = b.id and m.state = 'queued' and m.next_attempt_at <= now()
           order by m.id limit $2 for update skip locked) m
        order by b.started_at, b.id, m.id limit $2),
     claimed as (
       update broadcast_messages m set state = 'sending', attempts = m.attempts + 1, requested_at = null
         from picked left join contacts c on c.id = picked.contact_id
        where m.waba_account_id = picked.waba_account_id and m.id = picked.id
       returning m.id::int, m.broadcast_id::int, m.whatsapp_number, m.attempts,
         case when c.id is not null then
           jsonb_build_object('name', c.name, 'whatsapp_number', c.whatsapp_number, 'age', c.age,
             'gender', c.gender, 'address', c.address, 'post_code', c.post_code, 'email', c.email) || c.attributes
         end as contact,
         c.opted_out_at is not null as opted_out, picked.was_waiting, picked.started_at)
     -- Sent in the claim's order too (an update returns its rows in no promised order).
     select id, broadcast_id, whatsapp_number, attempts, contact, opted_out, was_waiting from claimed
      order by started_at, broadcast_id, id`,
    [phoneId, limit],
  );
  return rows;
}

/** Who marks or gives back rows: the sender holding the number's lease. */
export interface LeaseHolder {
  phoneId: number;
  accountId: number;
  holder: string;
}

/**
 * sending (no state change): marks rows requested while they are still `sending` and the sender still holds
 * the number's lease (the lease row FOR SHARE; request-marks.ts says why). Answers the rows marked. The mark's
 * time is when its rows were locked and written (clock_timestamp), not when its statement began (now()): a mark
 * that waited for a lock is still written just before its requests.
 */
export async function markRequested(
  pool: Pool | PoolClient,
  { phoneId, accountId, holder }: LeaseHolder,
  ids: number[],
): Promise<Set<number>> {
  const { rows } = await pool.query<{ id: number }>(MARK_REQUESTED_SQL('$1', '$2', '$3', '$4'), [
    ids,
    phoneId,
    holder,
    accountId,
  ]);
  return new Set(rows.map((row) => row.id));
}

const MARK_REQUESTED_SQL = (ids: string, phoneId: string, holder: string, accountId: string) =>
  `with lease as (select 1 from sender_leases where phone_number_id = ${phoneId} and holder = ${holder} for share),
   x as (select ${accountId}::bigint as waba_account_id, unnest(${ids}::bigint[]) as id
          where exists (select 1 from lease)),
   ${LOCKED}
   update broadcast_messages m set requested_at = clock_timestamp() where ${inLocked(accountId, 'sending')}
   returning m.id::int`;

/**
 * markRequested's statement with its values written in, for a mark sent in one round trip with the statements
 * that open its transaction (request-marks.ts): a query with several statements takes no parameters. The ids
 * and numbers are integers; the holder is quoted by the driver's escapeLiteral.
 */
export function markRequestedStatement(
  { phoneId, accountId, holder }: LeaseHolder,
  ids: number[],
  escapeLiteral: (text: string) => string,
): string {
  const whole = (n: number) => {
    if (!Number.isSafeInteger(n)) throw new Error(`not an id: ${n}`);
    return String(n);
  };
  return MARK_REQUESTED_SQL(
    `'{${ids.map(whole).join(',')}}'`,
    whole(phoneId),
    escapeLiteral(holder),
    whole(accountId),
  );
}

/**
 * sending → queued, the attempt not counted: rows a sender claimed and never requested (released by a stopping
 * worker or a template pause, or over the messaging limit).
 */
export async function requeueUnsent(pool: Pool, accountId: number, ids: number[]): Promise<void> {
  await pool.query(
    `with x as (select $2::bigint as waba_account_id, unnest($1::bigint[]) as id),
     ${LOCKED}
     update broadcast_messages m set state = 'queued', attempts = greatest(m.attempts - 1, 0)
      where ${inLocked('$2', 'sending')}`,
    [ids, accountId],
  );
}

/**
 * sending → queued, the attempt not counted, only while the sender still holds the number's lease (the lease
 * row FOR SHARE, as a mark takes it). A sender whose lease was taken over (its liveness lock lost with its
 * connection, or the lease lapsed) must not: the takeover already gave those rows back, and its successor may
 * have claimed and requested one since, which a late give-back would queue for a second send.
 */
export async function giveBack(
  pool: Pool,
  { phoneId, accountId, holder }: LeaseHolder,
  ids: number[],
): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(
    `with lease as (select 1 from sender_leases where phone_number_id = $2 and holder = $3 for share),
     x as (select $4::bigint as waba_account_id, unnest($1::bigint[]) as id where exists (select 1 from lease)),
     ${LOCKED}
     update broadcast_messages m set state = 'queued', attempts = greatest(m.attempts - 1, 0)
      where ${inLocked('$4', 'sending')}`,
    [ids, phoneId, holder, accountId],
  );
}

/**
 * A lease taken over from a sender that died mid-send: sending → unconfirmed for its rows marked requested
 * (they may have reached Meta: a status webhook or the outcome timeout settles them, never a resend); sending →
 * queued for the rest, claimed but never requested, their attempt not counted.
 */
export async function takeOverInFlight(pool: Pool, phoneId: number): Promise<void> {
  // Rows locked in id order, as every writer of message rows does (decision 022).
  await pool.query(
    `with x as (select m.waba_account_id, m.id from broadcast_messages m
                  join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
                 where b.phone_number_id = $1 and m.state = 'sending'),
     ${LOCKED}
     update broadcast_messages m
        set state = case when m.requested_at is null then 'queued' else 'unconfirmed' end,
            unconfirmed_at = case when m.requested_at is null then m.unconfirmed_at else now() end,
            attempts = case when m.requested_at is null then greatest(m.attempts - 1, 0) else m.attempts end
       from locked l where ${onLocked('sending')}`,
    [phoneId],
  );
}

/**
 * No state change: counts rows against their broadcast's spend cap. The caller (spend-cap.ts) has locked its
 * broadcasts, then these rows, in id order, in the same transaction.
 */
export async function markSpendCounted(client: PoolClient, accountId: number, ids: number[]): Promise<void> {
  await client.query(
    'update broadcast_messages set spend_counted = true where waba_account_id = $2 and id = any($1::bigint[])',
    [ids, accountId],
  );
}

/**
 * sending, unconfirmed or unknown → accepted or held: Meta accepted the request. A status webhook may already
 * have moved the row past `sending`; only then keep its state.
 */
export async function settleAccepted(
  pool: Pool,
  accountId: number,
  rows: Array<{ id: number; wamid: string; at: Date; state: 'accepted' | 'held' }>,
): Promise<void> {
  await pool.query(
    `with x as (select $5::bigint as waba_account_id, x.*
                 from unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::text[]) as x(id, wamid, at, state)),
     ${LOCKED}
     update broadcast_messages m
        set state = case when m.state in ('sending', 'unconfirmed', 'unknown') then x.state else m.state end,
            wamid = x.wamid, accepted_at = coalesce(m.accepted_at, x.at),
            -- Accepted: an earlier attempt's error (a retried outage) no longer describes the message.
            error_code = case when m.state in ('sending', 'unconfirmed', 'unknown') then null else m.error_code end,
            error_title = case when m.state in ('sending', 'unconfirmed', 'unknown') then null else m.error_title end
       from x where ${inLocked('$5')} and m.id = x.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.wamid),
      rows.map((r) => r.at),
      rows.map((r) => r.state),
      accountId,
    ],
  );
}

/** sending → queued with a delay and the error that delayed it: a failure worth another attempt. */
export async function retryLater(
  pool: Pool,
  accountId: number,
  rows: Array<{ id: number; delayMs: number; code: number; title: string }>,
): Promise<void> {
  await pool.query(
    `with x as (select $5::bigint as waba_account_id, x.*
                 from unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) as x(id, delay, code, title)),
     ${LOCKED}
     update broadcast_messages m set state = 'queued', next_attempt_at = now() + make_interval(secs => x.delay / 1000.0),
            error_code = x.code, error_title = x.title
       from x where ${inLocked('$5', 'sending')} and m.id = x.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.delayMs),
      rows.map((r) => r.code),
      rows.map((r) => r.title),
      accountId,
    ],
  );
}

/** sending → failed, unconfirmed, limited or not_on_whatsapp: the send's last word for this attempt. */
export async function settleFinal(
  pool: Pool,
  accountId: number,
  rows: Array<{
    id: number;
    state: 'failed' | 'unconfirmed' | 'limited' | 'not_on_whatsapp' | 'skipped';
    code: number | null;
    title: string;
  }>,
): Promise<void> {
  await pool.query(
    `with x as (select $5::bigint as waba_account_id, x.*
                 from unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) as x(id, state, code, title)),
     ${LOCKED}
     update broadcast_messages m set state = x.state, error_code = x.code, error_title = x.title,
            failed_at = case when x.state <> 'unconfirmed' then now() end,
            unconfirmed_at = case when x.state = 'unconfirmed' then now() end,
            -- A limited message may go again, no sooner than a day later (limited-retry.ts).
            next_attempt_at = case when x.state = 'limited' then now() + ${LIMITED_RETRY_DELAY} else m.next_attempt_at end
       from x where ${inLocked('$5', 'sending')} and m.id = x.id`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.state),
      rows.map((r) => r.code),
      rows.map((r) => r.title),
      accountId,
    ],
  );
}
