-- When Herald confirmed Meta's template analytics for the account (`is_enabled_for_insights`, asked once: Meta
-- counts from then on and it cannot be undone); null: not yet.
alter table waba_accounts
  add column template_insights_enabled_at timestamp with time zone;
