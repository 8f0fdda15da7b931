-- Who clicked (decision 091). A broadcast whose template has a tracked link button ({PUBLIC_URL}/l/{{1}})
-- keeps where the link leads and which button it is; each recipient's first click lands on their message row
-- (clicked_at), with Meta's click_id when Meta's Marketing Messages API appended one to the URL, and the part
-- of the message clicked (cta/body) when Meta's click webhook told it.
alter table broadcasts
  add column link_destination text,
  add column link_button_index integer;
alter table broadcast_messages
  add column clicked_at timestamp with time zone,
  add column click_id text,
  add column click_component text;
-- The report's and history's counts, and the Dashboard's by send hour: clicks are few next to messages.
create index broadcast_messages_clicked_idx on broadcast_messages (waba_account_id, broadcast_id)
  where clicked_at is not null;
create index broadcast_messages_clicked_sent_idx on broadcast_messages (waba_account_id, accepted_at)
  where clicked_at is not null;
create index broadcast_messages_click_id_idx on broadcast_messages (waba_account_id, click_id)
  where click_id is not null;
-- Meta's `marketing_messages_link_click` webhooks as received: they name no person or message, only a
-- click_id that Meta also appends to the URL the person opens; Herald's redirect ties the two together.
create table meta_link_clicks (
  waba_account_id bigint not null references waba_accounts(id) on delete cascade,
  click_id text not null,
  phone_number_id text not null,
  click_component text,
  clicked_at timestamp with time zone not null,
  received_at timestamp with time zone not null default now(),
  primary key (waba_account_id, click_id)
);

-- The Dashboard's trigger returns at once from an update that moves none of the figures it keeps (a click, a
-- price, a BSUID): the tracked-link redirect writes clicks in bursts, and so does every status's pricing.
create or replace function broadcast_messages_dashboard_update()
 returns trigger language plpgsql as $$
begin
  -- No row whose counted columns changed (a click, a price, a BSUID, a request mark): nothing changes here. One
  -- join of the statement's rows, far cheaper than the inserts below that would find nothing to add.
  if not exists (select 1 from old_rows o join new_rows n on n.id = o.id
                  where (o.state, o.accepted_at, o.delivered_at, o.read_at, o.failed_at, o.replied_at, o.engaged_at)
                        is distinct from (n.state, n.accepted_at, n.delivered_at, n.read_at, n.failed_at, n.replied_at, n.engaged_at)) then
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
