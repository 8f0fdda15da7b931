-- Decision 061: a sender claims its number's next batch in id order (the frozen audience's hash order). The
-- queue index (broadcast_id, next_attempt_at) cannot give that order, so each claim read and sorted every queued
-- row of the broadcast (30 ms at 50,000 queued, twice a second per number at 1,000 mps). This index hands out the
-- first due rows in order and stops; the queue index still answers "when is the next retry due".
create index broadcast_messages_claim_idx on broadcast_messages (broadcast_id, id) where state = 'queued';
-- The claim starts from the number's sending broadcasts: a handful among the account's whole history.
create index broadcasts_sending_idx on broadcasts (phone_number_id) where status = 'sending';

-- The Dashboard's trigger (migration 024) ran its three upserts after every update of message rows, also after
-- the two of every batch that change no figure: the claim (queued → sending) and the request marks. A row counts
-- in the figures from its accepted_at or failed_at on, and is active from its accepted_at; when no row of the
-- statement has either, before or after, the trigger now leaves after two scans of the transition tables.
create or replace function broadcast_messages_dashboard_update() returns trigger language plpgsql as $$
begin
  -- No row with an hour to count in (coalesce(accepted_at, failed_at)), before or after: nothing changes here.
  if not exists (select 1 from new_rows where accepted_at is not null or failed_at is not null)
     and not exists (select 1 from old_rows where accepted_at is not null or failed_at is not null) then
    return null;
  end if;
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
  -- Activity: a number that received a message (accepted by Meta) in an hour (as dashboard_activity()).
  insert into dashboard_active (waba_account_id, hour, whatsapp_number)
  select distinct b.waba_account_id, date_trunc('hour', n.accepted_at), n.whatsapp_number
    from old_rows o join new_rows n on n.id = o.id join broadcasts b on b.id = n.broadcast_id
   where o.accepted_at is null and n.accepted_at is not null
   order by 1, 2, 3
  on conflict do nothing;
  insert into dashboard_last_active as l (waba_account_id, whatsapp_number, last_at)
  select b.waba_account_id, n.whatsapp_number, max(n.accepted_at)
    from old_rows o join new_rows n on n.id = o.id join broadcasts b on b.id = n.broadcast_id
   where o.accepted_at is null and n.accepted_at is not null
   group by 1, 2 order by 1, 2
  on conflict (waba_account_id, whatsapp_number) do update set last_at = greatest(l.last_at, excluded.last_at);
  return null;
end
$$;
