-- Every broadcast reaches an end (decision 022): an unconfirmed message with no status webhook within
-- MESSAGE_OUTCOME_TIMEOUT_SECONDS gets the outcome `unknown` (it may or may not have been delivered), so its
-- broadcast completes; a status that arrives later still moves it to sent, delivered, read or failed.
alter table broadcast_messages drop constraint broadcast_messages_state_check;
alter table broadcast_messages add constraint broadcast_messages_state_check
  check (state in ('queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed',
                   'cancelled', 'unknown'));
-- When the row's outcome became unknown: the report says how long WhatsApp was waited for.
alter table broadcast_messages add column unknown_at timestamptz;
-- Counted like the others (broadcast-counts.ts), for the history's percentages.
alter table broadcasts add column unknown_count int not null default 0;
