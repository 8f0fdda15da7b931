-- Meta's Marketing Messages API for WhatsApp (decision 090). `mm_api_status` is the WABA's
-- `marketing_messages_onboarding_status` as Meta last answered it (ONBOARDED, ELIGIBLE, INELIGIBLE_…, PENDING_…;
-- null until read) and since when Herald has seen it so; `mm_api_requested_at` is when Herald asked Meta to invite the portfolio's admins to accept
-- the terms. Onboarded accounts send marketing templates through /marketing_messages unless the account's
-- setting says /messages.
alter table waba_accounts
  add column mm_api_status text,
  add column mm_api_status_since timestamp with time zone,
  add column mm_api_requested_at timestamp with time zone;
alter table account_settings add column marketing_via_mm_api boolean not null default true;
