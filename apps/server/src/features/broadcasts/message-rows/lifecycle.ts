import type { PoolClient } from 'pg';

/**
 * → queued (inserted): freezes a starting broadcast's whole audience (`audienceSql` with its parameters $2 and
 * $3, sampled to round(n × $5 / 100) in a deterministic hash order) in one statement, which also inserts its
 * first `firstRows` message rows; the rest of the frozen audience waits in broadcast_audiences for
 * insertAudienceSlice. Answers the audience's size. The caller holds the broadcast row.
 */
export async function insertAudience(
  client: PoolClient,
  audienceSql: string,
  params: [
    accountId: number,
    audienceIds: number[] | null,
    leaveOutUs: boolean,
    broadcastId: number,
    percentage: number,
    firstRows: number,
  ],
): Promise<number> {
  // Data-modifying CTEs run once whether or not the final select reads them.
  const frozen = await client.query<{ total: number }>(
    `with audience as materialized (
       select a.id, a.whatsapp_number, md5($4::text || ':' || a.id::text) as position
         from (${audienceSql}) a),
     sampled as materialized (
       select id, whatsapp_number, position from audience order by position
        limit (select round(count(*) * $5::numeric / 100) from audience)),
     frozen as (
       select coalesce(array_agg(id order by position), '{}') as ids,
              coalesce(array_agg(whatsapp_number order by position), '{}') as numbers,
              count(*)::int as total
         from sampled),
     first_rows as (
       insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number)
       select $1::bigint, $4::bigint, x.id, x.number
         from frozen, unnest(frozen.ids[1:$6], frozen.numbers[1:$6]) with ordinality as x(id, number, n)
        order by x.n
       returning 1),
     rest as (
       insert into broadcast_audiences (waba_account_id, broadcast_id, contact_ids, numbers, written)
       select $1::bigint, $4::bigint, ids, numbers, $6 from frozen where total > $6
       returning 1)
     select total from frozen`,
    params,
  );
  return frozen.rows[0]?.total ?? 0;
}

/**
 * → queued (inserted): the frozen audience's rows from position `written` + 1 to `end`, in hash order, in the
 * caller's transaction holding the audience row. A contact deleted since the start keeps its frozen number; its
 * row loses the contact (as the foreign key's `on delete set null` does for rows written earlier).
 */
export async function insertAudienceSlice(
  client: PoolClient,
  broadcastId: number,
  written: number,
  end: number,
): Promise<void> {
  await client.query(
    `insert into broadcast_messages (waba_account_id, broadcast_id, contact_id, whatsapp_number)
     select a.waba_account_id, a.broadcast_id, c.id, x.number
       from broadcast_audiences a
      cross join unnest(a.contact_ids[$2 + 1:$3], a.numbers[$2 + 1:$3]) with ordinality as x(id, number, n)
       left join contacts c on c.waba_account_id = a.waba_account_id and c.id = x.id
      where a.broadcast_id = $1
      order by x.n
     on conflict (waba_account_id, broadcast_id, whatsapp_number) do nothing`,
    [broadcastId, written, end],
  );
}

/** A broadcast has ended when nothing of it will be sent again; only then may its rows go. */
const ENDED = `b.status in ('completed', 'cancelled', 'failed')`;

/**
 * Any state → deleted: one batch of at most `limit` message rows of the account's broadcasts that ended before
 * `cutoff` (retention, decision 041), in the caller's transaction. Rows another writer holds are skipped (the
 * next run takes them). What the batch removed is added to the broadcast's removed outcomes in the same
 * statement, and the Dashboard keeps the figures (migration 020's trigger switch). Answers how many went.
 */
export async function deleteForRetention(
  client: PoolClient,
  accountId: number,
  cutoff: Date,
  limit: number,
): Promise<number> {
  // Read by the trigger function broadcast_messages_dashboard_delete() (migration 020), which then leaves
  // dashboard_hours alone: the hourly figures must outlive the rows retention removes (decision 041).
  await client.query(`set local herald.keep_dashboard_figures = 'on'`);
  const { rows } = await client.query<{ removed: number }>(
    `with doomed as (
       select m.id from broadcasts b
         join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
        where b.waba_account_id = $1 and ${ENDED}
          and coalesce(b.completed_at, b.started_at, b.created_at) < $2
        limit $3 for update of m skip locked),
     removed as (
       delete from broadcast_messages m using doomed d where m.waba_account_id = $1 and m.id = d.id
       returning m.broadcast_id, m.state, m.reply_id),
     kept as (
       insert into broadcast_removed_outcomes as o (waba_account_id, broadcast_id, state, recipients, replied)
       select $1, broadcast_id, state, count(*), count(reply_id) from removed group by broadcast_id, state
        order by broadcast_id, state
       on conflict (waba_account_id, broadcast_id, state) do update
         set recipients = o.recipients + excluded.recipients, replied = o.replied + excluded.replied)
     select count(*)::int as removed from removed`,
    [accountId, cutoff, limit],
  );
  return rows[0]!.removed;
}
