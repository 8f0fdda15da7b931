-- Decision 102: Active Contacts of any range in one index range. A number active in [start, end) has exactly one
-- active hour in the range whose previous active hour is before start (or that has none), so the count is a sum over
-- this table: how many numbers were active in an hour having last been active in another (-infinity: never before).
-- A 90-day range reads the rows of its 2,160 hours at most, where a distinct count read millions of activity rows.
-- Kept by a trigger on dashboard_active from every writer (the sender's statuses, the inbound messages).
-- Appended, never updated: one row per (hour, previous hour) a statement changed, and a pair's count is the sum of
-- its rows. A kept row per pair would be one row that every sender's batch of an hour locks until it commits (as
-- the webhook batches adding replies' activity do), so they would queue on it, or deadlock with a batch that locks
-- a message row after it.
create table dashboard_active_pairs (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  id bigint generated always as identity,
  hour timestamptz not null,
  previous_hour timestamptz not null,
  numbers integer not null,
  primary key (waba_account_id, id)
);
create index dashboard_active_pairs_hour_idx on dashboard_active_pairs (waba_account_id, hour)
  include (previous_hour, numbers);

-- Each number's hours in order: the hour before a new one, and the hours after a late one.
create index dashboard_active_number_idx on dashboard_active (waba_account_id, whatsapp_number, hour);

-- Each new hour is linked to the number's hour before it (new or old). An old hour right after a new one (a late
-- activity) was linked to the old hour before that new one: its link moves to the new one. Activity arrives in
-- order almost always, so the second part finds nothing: two index probes per new row, in the sender's batch.
create function dashboard_active_pairs_added() returns trigger language plpgsql as $$
begin
  insert into dashboard_active_pairs (waba_account_id, hour, previous_hour, numbers)
  select waba_account_id, hour, previous_hour, sum(delta)::int
    from (
      select n.waba_account_id, n.hour,
             coalesce((select d.hour from dashboard_active d
                        where d.waba_account_id = n.waba_account_id and d.whatsapp_number = n.whatsapp_number
                          and d.hour < n.hour
                        order by d.hour desc limit 1), '-infinity') as previous_hour,
             1 as delta
        from new_rows n
      union all
      select late.waba_account_id, late.next_hour, x.previous_hour, x.delta
        from (select n.waba_account_id, n.whatsapp_number, n.hour, nx.hour as next_hour
                from new_rows n
                cross join lateral (select d.hour from dashboard_active d
                                     where d.waba_account_id = n.waba_account_id
                                       and d.whatsapp_number = n.whatsapp_number and d.hour > n.hour
                                     order by d.hour limit 1) nx
               where not exists (select 1 from new_rows m
                                  where m.waba_account_id = n.waba_account_id
                                    and m.whatsapp_number = n.whatsapp_number and m.hour = nx.hour)) late
        cross join lateral (
          select late.hour as previous_hour, 1 as delta
          union all
          -- The old link: to the latest hour before it that is not new.
          select coalesce((select d.hour from dashboard_active d
                            where d.waba_account_id = late.waba_account_id
                              and d.whatsapp_number = late.whatsapp_number and d.hour < late.next_hour
                              and not exists (select 1 from new_rows m
                                               where m.waba_account_id = d.waba_account_id
                                                 and m.whatsapp_number = d.whatsapp_number and m.hour = d.hour)
                            order by d.hour desc limit 1), '-infinity'), -1) x
    ) x
   group by 1, 2, 3
  having sum(delta) <> 0;
  return null;
end $$;
create trigger dashboard_active_pairs_added after insert on dashboard_active
  referencing new table as new_rows for each statement execute function dashboard_active_pairs_added();

-- The pairs of one account from its activity rows: the backfill below, and benches that write activity in bulk.
create function dashboard_active_pairs_rebuild(p_account bigint) returns void language sql as $$
  delete from dashboard_active_pairs where waba_account_id = p_account;
  insert into dashboard_active_pairs (waba_account_id, hour, previous_hour, numbers)
  select p_account, hour, previous_hour, count(*)::int
    from (select hour, coalesce(lag(hour) over (partition by whatsapp_number order by hour), '-infinity') as previous_hour
            from dashboard_active where waba_account_id = p_account) x
   group by 2, 3;
$$;
select dashboard_active_pairs_rebuild(id) from waba_accounts;

-- Both writers of activity (the status trigger below and the inbound messages) go through this one function. Two
-- transactions adding hours of one number at once would each link their hour to the hours they see, not to each
-- other's. So the number's dashboard_last_active row is taken first (an upsert, in key order) and its hours are
-- inserted after: the second waits for the first to commit, and the pairs trigger's statement, which takes a
-- snapshot of its own, then sees the first one's hours.
create or replace function dashboard_activity(p_accounts bigint[], p_times timestamptz[], p_numbers text[])
returns void language sql as $$
  insert into dashboard_last_active as l (waba_account_id, whatsapp_number, last_at)
  select a, n, max(t) from unnest(p_accounts, p_times, p_numbers) as x(a, t, n)
   where t is not null group by a, n order by 1, 2
  on conflict (waba_account_id, whatsapp_number) do update set last_at = greatest(l.last_at, excluded.last_at);
  insert into dashboard_active (waba_account_id, hour, whatsapp_number)
  select distinct a, date_trunc('hour', t), n from unnest(p_accounts, p_times, p_numbers) as x(a, t, n)
   where t is not null order by 1, 2, 3
  on conflict do nothing;
$$;

create or replace function broadcast_messages_dashboard_update() returns trigger language plpgsql as $$
begin
  -- No row whose counted columns changed (a click, a price, a BSUID, a request mark): nothing changes here. One
  -- join of the statement's rows, far cheaper than the inserts below that would find nothing to add.
  if not exists (select 1 from old_rows o join new_rows n on n.id = o.id
                  where (o.state, o.accepted_at, o.delivered_at, o.read_at, o.failed_at, o.replied_at, o.engaged_at)
                        is distinct from (n.state, n.accepted_at, n.delivered_at, n.read_at, n.failed_at, n.replied_at, n.engaged_at)) then
    return null;
  end if;
  -- Activity: a number that received a message (accepted by Meta) in an hour, written as inbound messages are,
  -- and before the hourly figures as they are: the inbound messages' activity comes before their batch's figures,
  -- so every writer takes the activity rows, then the figures' rows (all shared by a whole hour's messages).
  perform dashboard_activity(array_agg(b.waba_account_id), array_agg(n.accepted_at), array_agg(n.whatsapp_number))
     from old_rows o join new_rows n on n.id = o.id join broadcasts b on b.id = n.broadcast_id
    where o.accepted_at is null and n.accepted_at is not null
   having count(*) > 0;
  insert into dashboard_hours as h
    (waba_account_id, hour, category, sent, delivered, read, failed, replied, engaged, response_seconds)
  select b.waba_account_id, f.hour, coalesce(b.template_category, 'UNKNOWN'),
         sum(f.sent), sum(f.delivered), sum(f.read), sum(f.failed), sum(f.replied), sum(f.engaged), sum(f.response_seconds)
    from (
      select o.broadcast_id, x.*
        from old_rows o join new_rows n on n.id = o.id
        cross join lateral (
          select -1 as sign, date_trunc('hour', coalesce(o.accepted_at, o.failed_at)) as hour,
                 -(o.accepted_at is not null)::int as sent, -(o.delivered_at is not null)::int as delivered,
                 -(o.read_at is not null)::int as read, -(o.state = 'failed')::int as failed,
                 -coalesce(o.delivered_at is not null and o.replied_at <= o.delivered_at + interval '24 hours', false)::int as replied,
                 -(o.delivered_at is not null and o.engaged_at is not null)::int as engaged,
                 -(case when o.delivered_at is not null and o.replied_at <= o.delivered_at + interval '24 hours'
                        then greatest(0, extract(epoch from o.replied_at - o.delivered_at))::bigint else 0 end) as response_seconds
          union all
          select 1, date_trunc('hour', coalesce(n.accepted_at, n.failed_at)),
                 (n.accepted_at is not null)::int, (n.delivered_at is not null)::int,
                 (n.read_at is not null)::int, (n.state = 'failed')::int,
                 coalesce(n.delivered_at is not null and n.replied_at <= n.delivered_at + interval '24 hours', false)::int,
                 (n.delivered_at is not null and n.engaged_at is not null)::int,
                 case when n.delivered_at is not null and n.replied_at <= n.delivered_at + interval '24 hours'
                      then greatest(0, extract(epoch from n.replied_at - n.delivered_at))::bigint else 0 end) x
       where (o.state, o.accepted_at, o.delivered_at, o.read_at, o.failed_at, o.replied_at, o.engaged_at)
             is distinct from (n.state, n.accepted_at, n.delivered_at, n.read_at, n.failed_at, n.replied_at, n.engaged_at)
    ) f join broadcasts b on b.id = f.broadcast_id
   where f.hour is not null
   group by 1, 2, 3
  having sum(f.sent) <> 0 or sum(f.delivered) <> 0 or sum(f.read) <> 0 or sum(f.failed) <> 0
      or sum(f.replied) <> 0 or sum(f.engaged) <> 0 or sum(f.response_seconds) <> 0
   order by 1, 2, 3
  on conflict (waba_account_id, hour, category) do update
    set sent = h.sent + excluded.sent, delivered = h.delivered + excluded.delivered,
        read = h.read + excluded.read, failed = h.failed + excluded.failed,
        replied = h.replied + excluded.replied, engaged = h.engaged + excluded.engaged,
        response_seconds = h.response_seconds + excluded.response_seconds;
  return null;
end
$$;
