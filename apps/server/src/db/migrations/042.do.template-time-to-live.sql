-- A marketing template's own time-to-live (Meta's `message_send_ttl_seconds`, 43200–2592000 seconds); null
-- keeps Meta's default (30 days). Meta applies it to sends through the Marketing Messages API only.
alter table templates
  add column message_send_ttl_seconds integer
    check (message_send_ttl_seconds is null or message_send_ttl_seconds between 43200 and 2592000);
