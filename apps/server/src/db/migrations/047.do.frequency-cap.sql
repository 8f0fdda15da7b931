-- The frequency cap (decision 098): at most N marketing messages per person in any D days, per business account,
-- across its broadcasts and numbers. Null messages: no cap. The defaults are Herald's (two a week).
alter table account_settings
  add column frequency_cap_messages integer default 2
    check (frequency_cap_messages is null or frequency_cap_messages between 1 and 30),
  add column frequency_cap_days integer not null default 7 check (frequency_cap_days between 1 and 30);

-- Skipped: the person already had the cap's marketing messages in its window, so Herald did not send this one.
-- An outcome of its own, not a failure; never sent again.
alter table broadcast_messages drop constraint broadcast_messages_state_check;
alter table broadcast_messages add constraint broadcast_messages_state_check check (state = any (array[
  'queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed', 'cancelled', 'unknown',
  'held', 'limited', 'not_on_whatsapp', 'expired', 'skipped']));
alter table broadcasts add column skipped_count integer not null default 0;

-- One row per marketing message let through the cap: whom it went to and when. A message keeps its row when it
-- is tried again (its own touch lets it through), so a retry never counts twice. Rows older than the longest
-- window a setting allows (30 days) are pruned by the next reservation for the same person.
create table marketing_touches (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  message_id bigint not null,
  whatsapp_number text not null,
  touched_at timestamptz not null,
  primary key (waba_account_id, message_id)
);
create index marketing_touches_person_idx on marketing_touches (waba_account_id, whatsapp_number, touched_at);

-- Reserves the account's frequency cap for one batch about to be sent, in one statement so it is atomic: takes
-- the account's reservation lock (every worker and number of the account queues on it), and answers the ids of
-- the batch's marketing messages that would take a person over the cap. Each message of a MARKETING template
-- is let through when it already has its touch (a retry), or when the person's touches in the window plus the
-- batch's earlier messages to them stay within the cap; those let through are stamped now. Other messages,
-- and every message when the account has no cap, pass untouched.
create function reserve_frequency(p_account bigint, p_ids bigint[], p_broadcasts bigint[], p_numbers text[])
returns bigint[]
language plpgsql as $$
declare
  cap integer;
  window_days integer;
  skipped bigint[];
begin
  select s.frequency_cap_messages, s.frequency_cap_days into cap, window_days
    from account_settings s where s.waba_account_id = p_account;
  if not found then
    -- An account that never saved its settings has the column defaults: its row is written with them once.
    insert into account_settings (waba_account_id) values (p_account) on conflict (waba_account_id) do nothing;
    select s.frequency_cap_messages, s.frequency_cap_days into cap, window_days
      from account_settings s where s.waba_account_id = p_account;
  end if;
  if cap is null then return '{}'; end if;

  perform pg_advisory_xact_lock(hashtextextended('frequency_cap:' || p_account, 0));

  delete from marketing_touches t
   where t.waba_account_id = p_account and t.whatsapp_number = any(p_numbers)
     and t.touched_at < now() - interval '30 days';

  with batch as (
    select u.id, u.n, u.i
      from unnest(p_ids, p_broadcasts, p_numbers) with ordinality as u(id, broadcast, n, i)
     where u.broadcast in (select b.id from broadcasts b
                             join templates tp on tp.waba_account_id = b.waba_account_id and tp.id = b.template_id
                            where b.waba_account_id = p_account and b.id = any(p_broadcasts)
                              and upper(tp.category) = 'MARKETING')
       and not exists (select 1 from marketing_touches t where t.waba_account_id = p_account and t.message_id = u.id)),
  ranked as (
    select f.id, f.n,
           row_number() over (partition by f.n order by f.i) as k,
           (select count(*) from marketing_touches t
             where t.waba_account_id = p_account and t.whatsapp_number = f.n
               and t.touched_at > now() - make_interval(days => window_days)) as had
      from batch f),
  taken as (
    insert into marketing_touches (waba_account_id, message_id, whatsapp_number, touched_at)
    select p_account, r.id, r.n, now() from ranked r where r.had + r.k <= cap
    returning message_id)
  select coalesce(array_agg(r.id), '{}') into skipped
    from ranked r where r.id not in (select message_id from taken);
  return skipped;
end $$;
