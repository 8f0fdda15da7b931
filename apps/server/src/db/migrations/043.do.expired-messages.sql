-- Expired: WhatsApp kept trying to deliver a message for its time-to-live and dropped it undelivered (the phone
-- was off that long). Meta's pages name no error code for it, so Herald recognises it by time: a failure
-- reported at or after the request plus the time-to-live (decision 093). An outcome of its own, like
-- not_on_whatsapp: not a failure, never sent again.
alter table broadcast_messages drop constraint broadcast_messages_state_check;
alter table broadcast_messages add constraint broadcast_messages_state_check check (state = any (array[
  'queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed', 'cancelled', 'unknown',
  'held', 'limited', 'not_on_whatsapp', 'expired']));

-- The time-to-live of the broadcast's messages as its template had it when the broadcast was created (a
-- marketing template's own; null: Meta's default, 30 days), and how many expired.
alter table broadcasts
  add column message_ttl_seconds integer,
  add column expired_count integer not null default 0;

-- The Dashboard's Expired figure: an account's expired messages by the time Meta accepted them (as every figure).
create index broadcast_messages_expired_idx on broadcast_messages (waba_account_id, accepted_at)
  where state = 'expired';
