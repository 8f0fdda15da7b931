-- reserve_frequency (migration 047) asks first whether the batch holds a marketing message at all: a batch of
-- utility or authentication messages, which the cap never counts, then returns before taking the account's
-- reservation lock and pruning old touches, so it never waits behind another number's marketing batch.
create or replace function reserve_frequency(p_account bigint, p_ids bigint[], p_broadcasts bigint[], p_numbers text[])
returns bigint[]
language plpgsql as $$
declare
  cap integer;
  window_days integer;
  marketing bigint[];
  skipped bigint[];
begin
  select coalesce(array_agg(b.id), '{}') into marketing
    from broadcasts b
    join templates tp on tp.waba_account_id = b.waba_account_id and tp.id = b.template_id
   where b.waba_account_id = p_account and b.id = any(p_broadcasts) and upper(tp.category) = 'MARKETING';
  if cardinality(marketing) = 0 then return '{}'; end if;

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
     where u.broadcast = any(marketing)
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
