-- Decision 101: segments' activity rules ("read in the last 30 days", "never engaged") read each contact's latest
-- time of each event here instead of searching the account's message rows (4.4 s at 10,000,000 rows): one narrow
-- row per contact reached. A rule about one broadcast still reads that broadcast's rows. The times are kept by the
-- triggers below from every write of message rows; they only move forward, as message statuses do. A message row
-- deleted later (retention, a deleted broadcast) takes nothing away: the contact did read it, as the Dashboard's
-- figures outlive their rows too.
create table contact_activity (
  waba_account_id bigint not null,
  contact_id bigint not null,
  -- The events as segment rules name them (segment-sql.ts): received = accepted by Meta; delivered counts a read
  -- without its delivered status; engaged = read, replied or clicked.
  received_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  replied_at timestamptz,
  clicked_at timestamptz,
  engaged_at timestamptz,
  primary key (waba_account_id, contact_id)
);

-- A deleted contact's row goes with it, by a trigger and not a foreign key (as contact_tags, decision 009): a key
-- check would lock the contact from inside a webhook's batch, against a delete waiting on that batch's rows.
create function delete_activity_of_removed_contacts() returns trigger language plpgsql as $$
begin
  delete from contact_activity a using removed r where a.waba_account_id = r.waba_account_id and a.contact_id = r.id;
  return null;
end $$;
create trigger contacts_remove_activity after delete on contacts
  referencing old table as removed for each statement execute function delete_activity_of_removed_contacts();

-- A contact's times from message rows, folded into what is kept: each time the later of the two (greatest()
-- skips nulls). Rows in key order, so two writers lock the same contacts in the same order.
create function contact_activity_merge(p_rows broadcast_messages[]) returns void language sql as $$
  insert into contact_activity as a
    (waba_account_id, contact_id, received_at, delivered_at, read_at, replied_at, clicked_at, engaged_at)
  select m.waba_account_id, m.contact_id, max(m.accepted_at), max(coalesce(m.delivered_at, m.read_at)),
         max(m.read_at), max(m.replied_at), max(m.clicked_at), max(greatest(m.read_at, m.replied_at, m.clicked_at))
    from unnest(p_rows) m
   where m.contact_id is not null
     and coalesce(m.accepted_at, m.delivered_at, m.read_at, m.replied_at, m.clicked_at) is not null
   group by 1, 2
   order by 1, 2
  on conflict (waba_account_id, contact_id) do update
    set received_at = greatest(a.received_at, excluded.received_at),
        delivered_at = greatest(a.delivered_at, excluded.delivered_at),
        read_at = greatest(a.read_at, excluded.read_at),
        replied_at = greatest(a.replied_at, excluded.replied_at),
        clicked_at = greatest(a.clicked_at, excluded.clicked_at),
        engaged_at = greatest(a.engaged_at, excluded.engaged_at);
$$;

-- Updates: the rows of the statement whose times changed. The claim and the request marks (most updates while
-- sending) change none, and leave after one pass over the statement's rows.
create function broadcast_messages_activity_update() returns trigger language plpgsql as $$
declare
  changed broadcast_messages[];
begin
  select array_agg(n) into changed
    from new_rows n join old_rows o on o.waba_account_id = n.waba_account_id and o.id = n.id
   where n.contact_id is not null
     and (n.accepted_at, n.delivered_at, n.read_at, n.replied_at, n.clicked_at)
         is distinct from (o.accepted_at, o.delivered_at, o.read_at, o.replied_at, o.clicked_at);
  if changed is not null then perform contact_activity_merge(changed); end if;
  return null;
end $$;
create trigger broadcast_messages_activity_update after update on broadcast_messages
  referencing old table as old_rows new table as new_rows
  for each statement execute function broadcast_messages_activity_update();

-- Inserts: rows are written queued, without times (the audience writer, a million at a time), so the trigger is
-- per row with a WHEN that passes them by; only a row written with a time (an import of history, a test) runs it.
create function broadcast_messages_activity_insert() returns trigger language plpgsql as $$
begin
  perform contact_activity_merge(array[new]);
  return null;
end $$;
create trigger broadcast_messages_activity_insert after insert on broadcast_messages
  for each row when (new.contact_id is not null
                     and coalesce(new.accepted_at, new.delivered_at, new.read_at, new.replied_at, new.clicked_at) is not null)
  execute function broadcast_messages_activity_insert();

-- The times of an account's contacts from all their message rows: this migration's starting point, and what a
-- bulk load of history (bench/segments.bench.ts) runs after writing rows with the insert trigger off.
create function contact_activity_rebuild(p_account bigint) returns void language sql as $$
  delete from contact_activity where waba_account_id = p_account;
  insert into contact_activity
    (waba_account_id, contact_id, received_at, delivered_at, read_at, replied_at, clicked_at, engaged_at)
  select m.waba_account_id, m.contact_id, max(m.accepted_at), max(coalesce(m.delivered_at, m.read_at)),
         max(m.read_at), max(m.replied_at), max(m.clicked_at), max(greatest(m.read_at, m.replied_at, m.clicked_at))
    from broadcast_messages m
   where m.waba_account_id = p_account and m.contact_id is not null
     and coalesce(m.accepted_at, m.delivered_at, m.read_at, m.replied_at, m.clicked_at) is not null
   group by 1, 2;
$$;

select contact_activity_rebuild(id) from waba_accounts;
analyze contact_activity;
