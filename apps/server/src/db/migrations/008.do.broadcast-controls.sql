-- Pause, resume and cancel (docs/decisions/011): a broadcast may be paused; a cancelled broadcast's messages
-- that were never sent end `cancelled` (terminal, not counted as failed).
alter table broadcasts drop constraint broadcasts_status_check;
alter table broadcasts add constraint broadcasts_status_check
  check (status in ('scheduled', 'sending', 'paused', 'completed', 'cancelled', 'failed'));
alter table broadcast_messages drop constraint broadcast_messages_state_check;
alter table broadcast_messages add constraint broadcast_messages_state_check
  check (state in ('queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed', 'cancelled'));
