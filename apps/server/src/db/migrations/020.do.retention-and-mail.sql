-- Issue 17, Customer Settings: the data retention (decision 041) and the broadcast-completed e-mail (decision 042).

-- What the retention removed of a broadcast, by message state: added in the statement that deletes the rows,
-- so the rows still there plus these always make the broadcast's full figures.
create table broadcast_removed_outcomes (
  broadcast_id bigint not null references broadcasts (id) on delete cascade,
  state text not null,
  recipients int not null,
  -- Of them, recipients who had replied (the history's Replied % keeps its own counter).
  replied int not null,
  primary key (broadcast_id, state)
);

-- The retention removes replies by their age per account; and each removed reply clears the reply_id of the
-- message it answered (on delete set null), which without this index is a scan of every message per reply.
create index inbound_messages_age_idx on inbound_messages (waba_account_id, sent_at);
create index broadcast_messages_reply_idx on broadcast_messages (reply_id) where reply_id is not null;

-- The Dashboard's hourly figures outlive the rows they were made from: a delete by the retention job (which
-- sets herald.keep_dashboard_figures in its transaction) takes nothing away from them. Otherwise as in 015.
create or replace function broadcast_messages_dashboard_delete() returns trigger language plpgsql as $$
declare
  olds broadcast_messages[];
begin
  if current_setting('herald.keep_dashboard_figures', true) = 'on' then return null; end if;
  select array_agg(o order by o.id) into olds from old_rows o
   where o.accepted_at is not null or o.failed_at is not null;
  if olds is not null then perform dashboard_apply(olds, '{}'); end if;
  return null;
end $$;

-- The broadcast-completed e-mails to send: one row per broadcast, written in the statement that completes it
-- when its account has 'Notify Customers via Email' on (the trigger below), so no completion path forgets one
-- and a second completion (after a limited message was retried) sends none. A pg-boss job sends them.
create table broadcast_mails (
  broadcast_id bigint primary key references broadcasts (id) on delete cascade,
  created_at timestamptz not null default now(),
  attempts int not null default 0,
  -- Set once: 'sent', or why not ('no mail server', 'gave up').
  outcome text,
  done_at timestamptz,
  last_error text
);
create index broadcast_mails_pending_idx on broadcast_mails (broadcast_id) where outcome is null;

create function broadcasts_completed_mail() returns trigger language plpgsql as $$
begin
  insert into broadcast_mails (broadcast_id)
  select new.id from account_settings s
   where s.waba_account_id = new.waba_account_id and s.notify_by_email
  on conflict (broadcast_id) do nothing;
  return null;
end $$;
create trigger broadcasts_completed_mail after update of status on broadcasts
  for each row when (new.status = 'completed' and old.status is distinct from new.status)
  execute function broadcasts_completed_mail();
