-- Account health (decision 077): what Meta's account_update webhooks said about a business account's ban,
-- restrictions and violations. The events as they came, and the state they leave, which the banner reads.

create table account_health_events (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  id bigint generated always as identity,
  -- Meta's event: DISABLED_UPDATE, ACCOUNT_RESTRICTION or ACCOUNT_VIOLATION.
  event text not null,
  -- The change's value as Meta sent it (ban_info, restriction_info, violation_info), kept for support.
  value jsonb not null,
  received_at timestamptz not null default now(),
  primary key (waba_account_id, id)
);

-- One row per account that ever had such an event; each event replaces its own part.
create table account_health (
  waba_account_id bigint primary key references waba_accounts (id) on delete cascade,
  -- The last waba_ban_state; null once reinstated (REINSTATE lifts the ban, so there is nothing to show).
  ban_state text,
  -- waba_ban_date as Meta wrote it (a date, a Unix time or free text), and when Herald received the ban.
  ban_date text,
  ban_since timestamptz,
  -- The restrictions of the last ACCOUNT_RESTRICTION: [{type, expires_at}]; an expired one is left out when read.
  restrictions jsonb not null default '[]',
  restricted_since timestamptz,
  violation_type text,
  violation_at timestamptz,
  updated_at timestamptz not null default now()
);
