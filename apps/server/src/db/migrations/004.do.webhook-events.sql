-- Webhooks from the Cloud API are stored first (raw, as received) and applied afterwards in batches,
-- so the endpoint answers fast and nothing is lost if applying fails or the process stops.
create table webhook_events (
  id bigint generated always as identity primary key,
  payload jsonb not null,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  attempts int not null default 0,
  last_error text
);
create index webhook_events_pending_idx on webhook_events (id) where processed_at is null;
