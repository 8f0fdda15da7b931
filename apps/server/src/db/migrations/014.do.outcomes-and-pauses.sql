-- Outcomes that are not Herald's failures, and pauses WhatsApp makes (issue 15; decisions 028 and 029).
--   held            Meta answered held_for_quality_assessment (template pacing): a later status settles it.
--   limited         131049, the per-user marketing limit: retried no sooner than 24 hours later, a few times.
--   not_on_whatsapp 131026: the number cannot receive WhatsApp messages; never retried.
alter table broadcast_messages drop constraint broadcast_messages_state_check;
alter table broadcast_messages add constraint broadcast_messages_state_check
  check (state in ('queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed',
                   'cancelled', 'unknown', 'held', 'limited', 'not_on_whatsapp'));
-- How many times a limited message went back to the queue (at most MARKETING_LIMIT_RETRIES).
alter table broadcast_messages add column limit_retries int not null default 0;
-- The tick looks for limited messages whose 24 hours are over (limited-retry.ts).
create index broadcast_messages_limited_idx on broadcast_messages (next_attempt_at) where state = 'limited';

-- Why a broadcast is paused when WhatsApp did it (its template paused or disabled); cleared on resume.
alter table broadcasts add column status_reason text;
-- Counted apart from failed (broadcast-counts.ts), for the history's percentages and cards.
alter table broadcasts add column limited_count int not null default 0;
alter table broadcasts add column not_on_whatsapp_count int not null default 0;
