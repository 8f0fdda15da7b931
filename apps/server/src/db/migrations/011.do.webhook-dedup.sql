-- A webhook body received again (Meta retries identical bodies for up to 7 days) is stored once, so it is
-- applied once (docs/decisions/019). The key is the sha256 of the body's canonical JSON, jsonb's text form:
-- whitespace and key order do not make a replay look new. The inbox inserts with ON CONFLICT DO NOTHING.
alter table webhook_events add column body_sha256 bytea;

-- Rows stored before this migration: the first of each identical body takes the digest; later copies (already
-- applied, harmlessly, since every handler is idempotent) keep null, which the unique index lets through.
update webhook_events
   set body_sha256 = sha256(convert_to(payload::text, 'UTF8'))
 where id in (select min(id) from webhook_events group by sha256(convert_to(payload::text, 'UTF8')));

create unique index webhook_events_body_sha256_key on webhook_events (body_sha256);
