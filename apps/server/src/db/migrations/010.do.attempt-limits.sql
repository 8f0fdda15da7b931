-- Attempt limits that hold under parallel requests (docs/decisions/008). The old auth_attempts rows were
-- counted by one statement and written by a later one, so parallel guesses all passed the count before any
-- was written (100 wrong passwords at once: all 100 checked against a limit of 10).
--
-- Now an attempt is reserved before its password or PIN is checked, by one call of reserve_attempt(): it
-- locks every counter the attempt touches (per account and address, per address, per account) and adds one
-- to all of them only when none is full. The row locks serialise attempts that share a counter, so N
-- parallel attempts count N and exactly `limit` are ever checked, in any number of API processes.
drop table auth_attempts;

create table attempt_counters (
  -- 'login', 'pin' (the password reset's PIN check) or 'signup'.
  kind text not null,
  -- 'account_address' (one e-mail from one address), 'address' or 'account' (one e-mail from anywhere).
  scope text not null,
  -- The e-mail, the address (an IPv6 address by its /64) or both as "address/e-mail".
  key text not null,
  attempts integer not null default 0,
  -- The window starts at the counter's first attempt and ends here; whole seconds, so the application can
  -- name a window exactly (release_attempt) with a number.
  window_ends timestamptz not null,
  primary key (kind, scope, key)
);
create index attempt_counters_window_ends_idx on attempt_counters (window_ends);

-- Reserves one attempt in every counter named by (p_scopes[i], p_keys[i]), each with its limit p_limits[i],
-- all or none: when a counter is full nothing is added anywhere (a refused attempt is not checked, so it
-- costs nothing, and a stranger refused from one address cannot fill the owner's other counters).
-- Answers reserved, the seconds until the fullest refusing window ends, and the windows reserved in (epoch
-- seconds, in the order of p_scopes) for release_attempt.
create function reserve_attempt(
  p_kind text,
  p_scopes text[],
  p_keys text[],
  p_limits integer[],
  p_window_seconds integer
) returns table (reserved boolean, retry_after_seconds integer, windows bigint[])
language plpgsql as $$
declare
  wait integer;
begin
  -- One statement creates the missing counters and locks every one, in one order (scope, key) for all
  -- attempts, so attempts sharing counters queue instead of deadlocking. A counter whose window ended
  -- starts a new one.
  insert into attempt_counters as c (kind, scope, key, attempts, window_ends)
  select p_kind, s.scope, s.key, 0, date_trunc('second', now()) + make_interval(secs => p_window_seconds)
    from unnest(p_scopes, p_keys) as s(scope, key)
   order by s.scope, s.key
  on conflict (kind, scope, key) do update
    set attempts = case when c.window_ends <= now() then 0 else c.attempts end,
        window_ends = case when c.window_ends <= now() then excluded.window_ends else c.window_ends end;

  select max(greatest(1, ceil(extract(epoch from c.window_ends - now()))))::integer
    into wait
    from attempt_counters c
    join unnest(p_scopes, p_keys, p_limits) as s(scope, key, lim)
      on c.kind = p_kind and c.scope = s.scope and c.key = s.key
   where c.attempts >= s.lim;
  if wait is not null then
    return query select false, wait, null::bigint[];
    return;
  end if;

  update attempt_counters c
     set attempts = c.attempts + 1
    from unnest(p_scopes, p_keys) as s(scope, key)
   where c.kind = p_kind and c.scope = s.scope and c.key = s.key;
  return query
    select true, 0, array(
      select extract(epoch from c.window_ends)::bigint
        from unnest(p_scopes, p_keys) with ordinality as s(scope, key, i)
        join attempt_counters c on c.kind = p_kind and c.scope = s.scope and c.key = s.key
       order by s.i);
end $$;

-- Gives back one reserved attempt (it turned out right, so it is no failure), in each counter that is still in
-- the window it was reserved in; a counter whose window has since restarted is left alone. Locks in the order
-- reserve_attempt uses.
create function release_attempt(p_kind text, p_scopes text[], p_keys text[], p_windows bigint[])
returns void
language plpgsql as $$
declare
  entry record;
begin
  for entry in
    select s.scope, s.key, s.w from unnest(p_scopes, p_keys, p_windows) as s(scope, key, w) order by s.scope, s.key
  loop
    update attempt_counters c
       set attempts = c.attempts - 1
     where c.kind = p_kind and c.scope = entry.scope and c.key = entry.key
       and c.attempts > 0 and extract(epoch from c.window_ends)::bigint = entry.w;
  end loop;
end $$;
