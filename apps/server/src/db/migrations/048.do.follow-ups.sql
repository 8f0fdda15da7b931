-- Follow-ups (decision 099): a broadcast created with another, which it follows up after a delay, to those of
-- its recipients who did not read, reply or click. Its audience is chosen when it starts, once its parent has
-- completed; cancelling the parent cancels it.
alter table broadcasts
  add column follow_up_of bigint,
  add column follow_up_unless text check (follow_up_unless in ('read', 'replied', 'clicked')),
  add column follow_up_after_hours integer,
  -- The same account's broadcast, by the key every table that points at a broadcast uses.
  add constraint broadcasts_follow_up_of_fkey foreign key (waba_account_id, follow_up_of)
    references broadcasts (waba_account_id, id) on delete cascade,
  add constraint broadcasts_follow_up_check check (
    (follow_up_of is null) = (follow_up_unless is null) and (follow_up_of is null) = (follow_up_after_hours is null));
create index broadcasts_follow_up_of_idx on broadcasts (follow_up_of) where follow_up_of is not null;
