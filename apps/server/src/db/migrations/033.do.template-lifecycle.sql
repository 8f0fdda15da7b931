-- Decision 074: what Meta's template lifecycle webhooks say, kept as Meta means it rather than as a status word.
alter table templates
  -- The status an ARCHIVED template had, so UNARCHIVED can put it back (Meta's event names no status).
  add column status_before_archive text,
  -- LOCKED: Meta still sends the template but refuses edits; the status is left as it was.
  add column locked boolean not null default false,
  -- FLAGGED: at risk of being disabled for its quality; still sendable, so only the warning is kept.
  add column flagged_at timestamptz,
  -- REJECTED's rejection_info: Meta's explanation and what to change, beside the reason code.
  add column rejection_detail text,
  add column rejection_recommendation text,
  -- template_category_update's notice of a change to come, and when it takes effect.
  add column pending_category text,
  add column pending_category_at timestamptz;

-- LIMIT_EXCEEDED describes the account (at its template limit), not any one template.
alter table waba_accounts add column template_limit_exceeded_at timestamptz;

-- Statuses the earlier handler stored from events that are not statuses. A locked template and an unarchived one
-- were approved (Meta sends both); the template refresh corrects any that were not. A repair, not news: no bell
-- event for it.
alter table templates disable trigger templates_status_event;
update templates set status = 'APPROVED', locked = true where status = 'LOCKED';
update templates set status = 'APPROVED' where status = 'UNARCHIVED';
alter table templates enable trigger templates_status_event;

-- UNARCHIVED puts the template's earlier status back: the bell hears of an approval, not of that return.
create or replace function templates_status_event() returns trigger language plpgsql as $$
begin
  if new.status in ('APPROVED', 'REJECTED', 'PAUSED', 'DISABLED') and old.status <> 'ARCHIVED' then
    insert into account_events (waba_account_id, kind, subject_id, title, detail)
    values (new.waba_account_id, 'template_' || lower(new.status), new.id, new.name,
            coalesce(new.rejected_reason, ''));
  end if;
  return null;
end $$;
