-- Segments (decision 100): an account's saved audiences by rules over what contacts are and did. The rules are
-- kept as the contract's JSON (SegmentDefinitionSchema) and turned into SQL when read; a broadcast to a segment
-- keeps its own copy of them in its audience, so editing or deleting a segment changes no broadcast made with it.
create table segments (
  id bigint generated always as identity,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  definition jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (waba_account_id, id)
);
-- One name per account, without case: the name is how a business tells them apart in every list.
create unique index segments_name_key on segments (waba_account_id, lower(name));
