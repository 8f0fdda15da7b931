-- Foundation: what the skeleton itself needs. Feature tables arrive with their features.

-- Trigram search for contacts and templates (spec §2 search boxes) needs this extension;
-- creating it here keeps later migrations free of superuser-only steps.
create extension if not exists pg_trgm;

-- Each run of the worker's heartbeat job leaves a row: proof that the queue and a worker are alive.
create table worker_heartbeats (
  id bigint generated always as identity primary key,
  worker_id text not null,
  beat_at timestamptz not null default now()
);
create index worker_heartbeats_beat_at_idx on worker_heartbeats (beat_at desc);
