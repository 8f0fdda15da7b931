-- Customers' replies and the Dashboard's figures (issue 16; decisions 032 and 033).

-- Every inbound message of the messages webhook, per account; kept even from numbers that are not contacts.
create table inbound_messages (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  -- Meta's id: webhooks come at least once, a second delivery of one message is ignored.
  wamid text not null,
  -- E.164 ('+' and the sender's digits), as contacts and broadcast messages store numbers.
  from_number text not null,
  contact_id bigint references contacts (id) on delete set null,
  -- text, button, interactive, image, video, document, audio, sticker, location, contacts, reaction, other.
  kind text not null,
  -- The text, caption, button text or payload, reaction emoji; null when the kind has none.
  body text,
  -- WhatsApp's timestamp of the message (when the customer sent it).
  sent_at timestamptz not null,
  -- The broadcast message it answers (context.id, else the 24-hour rule); null when none.
  broadcast_message_id bigint references broadcast_messages (id) on delete set null,
  received_at timestamptz not null default now(),
  unique (waba_account_id, wamid)
);
create index inbound_messages_number_idx on inbound_messages (waba_account_id, from_number, sent_at);
create index inbound_messages_message_idx on inbound_messages (broadcast_message_id) where broadcast_message_id is not null;

-- A broadcast message's first answer: reply_id the earliest inbound message of any kind (the report shows it),
-- engaged_at its time, replied_at the earliest written one (not a press or a reaction; Response Rate).
alter table broadcast_messages add column reply_id bigint references inbound_messages (id) on delete set null;
alter table broadcast_messages add column engaged_at timestamptz;
alter table broadcast_messages add column replied_at timestamptz;
-- Recipients with a reply_id, kept by the reply linking under the broadcast's row lock (the history's Replied %).
alter table broadcasts add column replied_count int not null default 0;
-- The template's category when the broadcast was made, so deleting the template leaves the figures alone.
alter table broadcasts add column template_category text;
update broadcasts b set template_category = t.category from templates t where t.id = b.template_id;

create function broadcasts_set_category() returns trigger language plpgsql as $$
begin
  if new.template_category is null and new.template_id is not null then
    select category into new.template_category from templates where id = new.template_id;
  end if;
  return new;
end $$;
create trigger broadcasts_category before insert on broadcasts
  for each row execute function broadcasts_set_category();

-- The Dashboard's figures per account, UTC hour (of the message's acceptance by Meta, else its failure) and
-- template category: a function of the message rows, kept by the triggers below in the statement that changes
-- them, so they cannot drift (decision 032). Summed into the user's local days per request.
create table dashboard_hours (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  hour timestamptz not null,
  category text not null,
  sent bigint not null default 0,
  delivered bigint not null default 0,
  read bigint not null default 0,
  failed bigint not null default 0,
  replied bigint not null default 0,
  engaged bigint not null default 0,
  response_seconds bigint not null default 0,
  primary key (waba_account_id, hour, category)
);

-- Who was active when (received a broadcast message or sent one): Active Contacts, distinct over a range.
create table dashboard_active (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  hour timestamptz not null,
  whatsapp_number text not null,
  primary key (waba_account_id, hour, whatsapp_number)
);
-- Each number's latest activity: a range that ends now counts its numbers from here in one index range.
create table dashboard_last_active (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  whatsapp_number text not null,
  last_at timestamptz not null,
  primary key (waba_account_id, whatsapp_number)
);
create index dashboard_last_active_at_idx on dashboard_last_active (waba_account_id, last_at);

-- What one message row contributes to dashboard_hours (decision 032, docs/dashboard.md).
create function dashboard_figures(
  m broadcast_messages,
  out hour timestamptz, out sent int, out delivered int, out read int, out failed int,
  out replied int, out engaged int, out response_seconds bigint)
language sql immutable as $$
  select date_trunc('hour', coalesce(m.accepted_at, m.failed_at)),
         (m.accepted_at is not null)::int,
         (m.delivered_at is not null)::int,
         (m.read_at is not null)::int,
         (m.state = 'failed')::int,
         -- coalesce: a delivered message with no reply compares null, and `true and null` is null.
         coalesce(m.delivered_at is not null and m.replied_at <= m.delivered_at + interval '24 hours', false)::int,
         (m.delivered_at is not null and m.engaged_at is not null)::int,
         case when m.delivered_at is not null and m.replied_at <= m.delivered_at + interval '24 hours'
              then greatest(0, extract(epoch from m.replied_at - m.delivered_at))::bigint else 0 end
$$;

-- Adds the new rows' figures and takes away the old rows'. Keys in order, so two statements touching the same
-- hours lock them in the same order. Rows whose figures did not change (a queue claim) add nothing.
create function dashboard_apply(p_old broadcast_messages[], p_new broadcast_messages[]) returns void
language sql as $$
  with d as (
    select b.waba_account_id, f.hour, coalesce(b.template_category, 'UNKNOWN') as category, s.sign,
           f.sent, f.delivered, f.read, f.failed, f.replied, f.engaged, f.response_seconds
      from (select o as m, -1 as sign from unnest(p_old) o union all select n, 1 from unnest(p_new) n) s
      cross join lateral dashboard_figures(s.m) f
      join broadcasts b on b.id = (s.m).broadcast_id
     where f.hour is not null),
  sums as (
    select waba_account_id, hour, category, sum(sign * sent) as sent, sum(sign * delivered) as delivered,
           sum(sign * read) as read, sum(sign * failed) as failed, sum(sign * replied) as replied,
           sum(sign * engaged) as engaged, sum(sign * response_seconds) as response_seconds
      from d group by waba_account_id, hour, category)
  insert into dashboard_hours as h
    (waba_account_id, hour, category, sent, delivered, read, failed, replied, engaged, response_seconds)
  select * from sums
   where sent <> 0 or delivered <> 0 or read <> 0 or failed <> 0 or replied <> 0 or engaged <> 0
      or response_seconds <> 0
   order by waba_account_id, hour, category
  on conflict (waba_account_id, hour, category) do update
    set sent = h.sent + excluded.sent, delivered = h.delivered + excluded.delivered,
        read = h.read + excluded.read, failed = h.failed + excluded.failed,
        replied = h.replied + excluded.replied, engaged = h.engaged + excluded.engaged,
        response_seconds = h.response_seconds + excluded.response_seconds
$$;

-- Records activity: a number that received a message (accepted by Meta) in an hour.
create function dashboard_activity(p_accounts bigint[], p_times timestamptz[], p_numbers text[]) returns void
language sql as $$
  insert into dashboard_active (waba_account_id, hour, whatsapp_number)
  select distinct a, date_trunc('hour', t), n from unnest(p_accounts, p_times, p_numbers) as x(a, t, n)
   where t is not null order by 1, 2, 3
  on conflict do nothing;
  insert into dashboard_last_active as l (waba_account_id, whatsapp_number, last_at)
  select a, n, max(t) from unnest(p_accounts, p_times, p_numbers) as x(a, t, n)
   where t is not null group by a, n order by 1, 2
  on conflict (waba_account_id, whatsapp_number) do update set last_at = greatest(l.last_at, excluded.last_at);
$$;

create function broadcast_messages_dashboard_update() returns trigger language plpgsql as $$
declare
  olds broadcast_messages[];
  news broadcast_messages[];
  acc bigint[];
  times timestamptz[];
  nums text[];
begin
  -- Only rows whose figures changed: the engine's queue claims and retries move none and cost one join here.
  select array_agg(o order by o.id), array_agg(n order by n.id) into olds, news
    from old_rows o join new_rows n on n.id = o.id
   where (o.state, o.accepted_at, o.delivered_at, o.read_at, o.failed_at, o.replied_at, o.engaged_at)
         is distinct from (n.state, n.accepted_at, n.delivered_at, n.read_at, n.failed_at, n.replied_at, n.engaged_at);
  if news is null then return null; end if;
  perform dashboard_apply(olds, news);
  select array_agg(b.waba_account_id), array_agg(n.accepted_at), array_agg(n.whatsapp_number)
    into acc, times, nums
    from unnest(olds) o join unnest(news) n on n.id = o.id join broadcasts b on b.id = n.broadcast_id
   where o.accepted_at is null and n.accepted_at is not null;
  if acc is not null then perform dashboard_activity(acc, times, nums); end if;
  return null;
end $$;
create trigger broadcast_messages_dashboard_update after update on broadcast_messages
  referencing old table as old_rows new table as new_rows
  for each statement execute function broadcast_messages_dashboard_update();

create function broadcast_messages_dashboard_delete() returns trigger language plpgsql as $$
declare
  olds broadcast_messages[];
begin
  select array_agg(o order by o.id) into olds from old_rows o
   where o.accepted_at is not null or o.failed_at is not null;
  if olds is not null then perform dashboard_apply(olds, '{}'); end if;
  return null;
end $$;
create trigger broadcast_messages_dashboard_delete after delete on broadcast_messages
  referencing old table as old_rows
  for each statement execute function broadcast_messages_dashboard_delete();

-- The bell's and Recent Activity's events (issue 16, item 3): template reviewed or paused, broadcast completed,
-- waiting or paused, import finished. Written by triggers (and the import), so no status path can forget one.
create table account_events (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  kind text not null,
  -- The template's or broadcast's id (null for an import) and its name, as the event's title.
  subject_id bigint,
  title text not null,
  detail text not null default '',
  at timestamptz not null default now()
);
create index account_events_idx on account_events (waba_account_id, at desc, id desc);

-- Per user and account: events at or before seen_up_to are read (the bell's badge counts the rest).
create table account_events_seen (
  user_id bigint not null references users (id) on delete cascade,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  seen_up_to timestamptz not null,
  primary key (user_id, waba_account_id)
);

create function templates_status_event() returns trigger language plpgsql as $$
begin
  if new.status in ('APPROVED', 'REJECTED', 'PAUSED', 'DISABLED') then
    insert into account_events (waba_account_id, kind, subject_id, title, detail)
    values (new.waba_account_id, 'template_' || lower(new.status), new.id, new.name,
            coalesce(new.rejected_reason, ''));
  end if;
  return null;
end $$;
create trigger templates_status_event after update of status on templates
  for each row when (old.status is distinct from new.status) execute function templates_status_event();

create function broadcasts_status_event() returns trigger language plpgsql as $$
begin
  if new.status is distinct from old.status and new.status in ('completed', 'paused') then
    insert into account_events (waba_account_id, kind, subject_id, title, detail)
    values (new.waba_account_id, 'broadcast_' || new.status, new.id, new.name, coalesce(new.status_reason, ''));
  elsif new.waiting_until is not null and old.waiting_until is null then
    insert into account_events (waba_account_id, kind, subject_id, title, detail)
    values (new.waba_account_id, 'broadcast_waiting', new.id, new.name, 'Waiting for the 24-hour messaging limit');
  end if;
  return null;
end $$;
create trigger broadcasts_status_event after update of status, waiting_until on broadcasts
  for each row when (old.status is distinct from new.status or old.waiting_until is distinct from new.waiting_until)
  execute function broadcasts_status_event();
