-- The sending number and the portfolio messaging limit (issue 15; docs/decisions/027).

-- Meta's number status (CONNECTED, FLAGGED, RESTRICTED, …): a number that cannot send is refused at create.
alter table phone_numbers add column status text;

-- Set while a sending broadcast waits for the 24-hour messaging limit: senders skip it until then, and the
-- history shows when it should resume. Cleared when it sends again.
alter table broadcasts add column waiting_until timestamptz;

-- One row per business portfolio, keyed as portfolio_key() below names it. The row is the lock every
-- reservation takes, so reservations of one portfolio are serialised across every worker and number.
create table messaging_portfolios (
  key text primary key,
  -- Meta's tier (TIER_2K, …) and the unique users per rolling 24 h it allows; null limit = not enforced.
  tier text,
  reach_limit int,
  tier_updated_at timestamptz,
  -- How many rows portfolio_reach holds for this portfolio: kept by reserve_reach under the row lock, so
  -- the reservation never counts the window.
  reached int not null default 0
);

-- Who the portfolio reached and when last: a recipient counts until reached_at + the window. Rows past the
-- window are pruned by the next reservation of the portfolio.
create table portfolio_reach (
  portfolio text not null references messaging_portfolios (key) on delete cascade,
  whatsapp_number text not null,
  reached_at timestamptz not null,
  primary key (portfolio, whatsapp_number)
);
create index portfolio_reach_expiry_idx on portfolio_reach (portfolio, reached_at);

-- The portfolio a WABA belongs to: its business portfolio when the sign-up told Herald (scoped to the Herald
-- user, since sign-up data is the client's word and must not let one tenant spend another's limit), else the
-- WABA itself.
create function portfolio_key(p_user_id bigint, p_business_id text, p_waba_id text) returns text
language sql immutable as $$
  select coalesce('business:' || p_user_id || ':' || nullif(p_business_id, ''), 'waba:' || p_waba_id)
$$;

-- Reserves the portfolio's limit for one batch of recipients, all in one statement so it is atomic: locks the
-- portfolio row, prunes reaches older than the window, and lets through every recipient already reached in
-- the window (no new cost) plus as many new ones, in the batch's order, as the limit has room for. The ones
-- let through are (re)stamped reached now. Answers the numbers let through and, when some new ones did not
-- fit, when the window frees next (the oldest reach + the window).
create function reserve_reach(p_portfolio text, p_numbers text[], p_window_seconds integer)
returns table (allowed text[], frees_at timestamptz)
language plpgsql as $$
declare
  lim integer;
  have integer;
  gone integer;
  fresh text[];
  taken text[];
  window_start timestamptz := now() - make_interval(secs => p_window_seconds);
begin
  insert into messaging_portfolios (key) values (p_portfolio) on conflict (key) do nothing;
  select reach_limit, reached into lim, have from messaging_portfolios where key = p_portfolio for update;

  delete from portfolio_reach where portfolio = p_portfolio and reached_at <= window_start;
  get diagnostics gone = row_count;
  have := have - gone;

  select coalesce(array_agg(x.n order by x.i), '{}') into fresh
    from (select n, min(i) as i from unnest(p_numbers) with ordinality as u(n, i) group by n) x
   where not exists (select 1 from portfolio_reach r where r.portfolio = p_portfolio and r.whatsapp_number = x.n);
  taken := case when lim is null then fresh else fresh[1:greatest(0, lim - have)] end;

  insert into portfolio_reach (portfolio, whatsapp_number, reached_at)
  select distinct p_portfolio, n, now() from unnest(p_numbers) n
   where n = any(taken) or not (n = any(fresh))
  on conflict (portfolio, whatsapp_number) do update set reached_at = excluded.reached_at;

  update messaging_portfolios set reached = have + cardinality(taken) where key = p_portfolio;

  return query
    select array(select n from unnest(p_numbers) n where n = any(taken) or not (n = any(fresh))),
           case when cardinality(taken) < cardinality(fresh) then
             (select min(r.reached_at) + make_interval(secs => p_window_seconds)
                from portfolio_reach r where r.portfolio = p_portfolio)
           end;
end $$;
