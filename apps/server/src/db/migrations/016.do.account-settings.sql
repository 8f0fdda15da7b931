-- Settings saved per business account (issue 17): packages/contracts/src/settings.ts says what each one does.
create table account_settings (
  waba_account_id bigint primary key references waba_accounts (id) on delete cascade,
  default_language text not null default 'en_US' check (default_language in ('en_US', 'es', 'fr')),
  require_template_approval boolean not null default false,
  notify_by_email boolean not null default false,
  retention_years smallint not null default 5 check (retention_years in (1, 3, 5)),
  dark_theme boolean not null default false,
  beta_features boolean not null default false,
  updated_at timestamptz not null default now()
);
