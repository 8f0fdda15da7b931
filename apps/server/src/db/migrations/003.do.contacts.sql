-- Contacts (recipients), their tags, and the extra CSV columns ever imported (docs/decisions/010).

create table contacts (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  name text not null,
  -- E.164 ('+14155550123'), normalised by the service with libphonenumber-js.
  whatsapp_number text not null,
  age integer,
  gender text,
  address text,
  post_code text,
  email text,
  -- Extra CSV columns, by lower-cased column name; usable as template variables.
  attributes jsonb not null default '{}',
  opted_out_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index contacts_waba_number_key on contacts (waba_account_id, whatsapp_number);
-- The list's order (newest first, stable); paging walks this index and counts nothing.
create index contacts_waba_created_idx on contacts (waba_account_id, created_at desc, id desc);
-- Search: one trigram index over one lower-cased text of name, number and e-mail. One GIN index instead of
-- three cuts the index maintenance of a bulk import by about two thirds; the query repeats this expression.
create index contacts_search_idx on contacts
  using gin ((lower(name || ' ' || whatsapp_number || ' ' || coalesce(email, ''))) gin_trgm_ops);

-- How many contacts each account has: kept by the service in the same transaction as every insert and
-- delete, so page 1 of a million contacts never runs count(*).
create table contact_counts (
  waba_account_id bigint primary key references waba_accounts (id) on delete cascade,
  total bigint not null default 0 check (total >= 0)
);

create table tags (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now()
);
create unique index tags_waba_name_key on tags (waba_account_id, lower(name));

create table contact_tags (
  contact_id bigint not null references contacts (id) on delete cascade,
  tag_id bigint not null references tags (id) on delete cascade,
  primary key (contact_id, tag_id)
);
-- Tag counts and tag audiences read by tag; covering contact_id keeps those scans index-only.
create index contact_tags_tag_idx on contact_tags (tag_id, contact_id);

-- Every extra column ever imported into an account (GET /recipient/cols), even after its contacts are gone.
create table contact_columns (
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  name text not null,
  primary key (waba_account_id, name)
);
