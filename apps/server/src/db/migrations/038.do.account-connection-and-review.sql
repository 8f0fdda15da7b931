-- Account standing beyond bans and restrictions (decision 086): whether Herald can still reach the account
-- (Meta deleted or offboarded it, or the business removed Herald as its partner or revoked its app), and
-- Meta's review of the account (a WABA rejected, pending or deferred cannot be used with the APIs). Both stop
-- every send, as a ban does.
alter table account_health
  -- The last event that cut Herald off (ACCOUNT_DELETED, ACCOUNT_OFFBOARDED, PARTNER_REMOVED,
  -- PARTNER_APP_UNINSTALLED); null while connected or once the matching event reconnected it.
  add column disconnected_by text,
  add column disconnected_since timestamptz,
  -- account_review_update's decision while it is not APPROVED (REJECTED, PENDING, DEFERRED); null once approved.
  add column review_decision text,
  add column review_since timestamptz;

-- When Meta says the event happened (the webhook entry's `time`): an event older than one already applied to
-- the same part of the account's standing is kept but changes nothing, so a late delivery never undoes a newer
-- state. Null for an event Meta sent without a time (applied in the order received).
alter table account_health_events add column meta_time timestamptz;
