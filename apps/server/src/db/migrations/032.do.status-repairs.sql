-- Decision 068: each message row the status repair sweep moved forward, kept as the sweep's audit beside its log
-- line and herald_status_repairs_total. A worker's metric dies with its process; this table does not, so an
-- operator (and every test, which expects it empty) can see whether a status was ever applied late.
create table status_repairs (
  id bigint generated always as identity,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  -- No reference to the message: retention may remove it, and the audit says what happened to it.
  broadcast_message_id bigint not null,
  broadcast_id bigint not null,
  wamid text,
  webhook_event_id bigint not null,
  state_before text not null,
  status text not null,
  repaired_at timestamptz not null default now(),
  primary key (waba_account_id, id)
);
