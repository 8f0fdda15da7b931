-- Accounts and sign-in: users, their refresh tokens, linked WhatsApp Business Accounts and numbers.

create table users (
  id bigint generated always as identity primary key,
  email text not null,
  password_hash text not null,
  -- The PIN shown once at sign-up; with the e-mail it lets the user set a new password.
  pin_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- E-mails are stored lower-cased by the service; the index makes "already registered" a constraint.
create unique index users_email_key on users (email);

-- Refresh tokens rotate: each use issues a new one in the same family and marks the old one used.
-- Presenting a used token again revokes the whole family (someone copied it).
create table refresh_tokens (
  jti uuid primary key,
  family uuid not null,
  user_id bigint not null references users (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index refresh_tokens_family_idx on refresh_tokens (family);
create index refresh_tokens_user_idx on refresh_tokens (user_id);

create table waba_accounts (
  id bigint generated always as identity primary key,
  -- Meta's id; one Herald user owns a WABA, so a second sign-up with it is refused.
  waba_id text not null unique,
  user_id bigint not null references users (id) on delete cascade,
  name text,
  business_id text,
  -- The customer's business token from the code exchange, AES-256-GCM encrypted.
  business_token_encrypted text not null,
  created_at timestamptz not null default now()
);
create index waba_accounts_user_idx on waba_accounts (user_id, id);

create table phone_numbers (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  phone_number_id text not null unique,
  display_phone_number text not null,
  verified_name text not null,
  quality_rating text,
  throughput_level text,
  messaging_limit_tier text,
  -- The two-step verification PIN the number was registered with, AES-256-GCM encrypted.
  two_step_pin_encrypted text,
  synced_at timestamptz not null default now()
);
create index phone_numbers_waba_idx on phone_numbers (waba_account_id);

-- Failed sign-in and password-reset attempts, for rate limiting across every server process.
create table auth_attempts (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('login', 'password_reset')),
  email text not null,
  ip text not null,
  attempted_at timestamptz not null default now()
);
create index auth_attempts_email_idx on auth_attempts (kind, email, attempted_at);
create index auth_attempts_ip_idx on auth_attempts (kind, ip, attempted_at);
