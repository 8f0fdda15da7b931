-- Message templates and the media files of their headers.

-- Header media kept for previews (served to its owner only) and re-uploads. Stored in Postgres so every API
-- process sees it and it is backed up with the rest; Meta caps documents at 100 MB.
create table template_media (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  file_name text not null,
  mime_type text not null,
  size_bytes int not null,
  content bytea not null,
  -- The resumable-upload handle Meta gave for this file (a review sample, not reusable for sending).
  header_handle text,
  created_at timestamptz not null default now()
);
create index template_media_waba_idx on template_media (waba_account_id);

create table templates (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  -- Meta's id; null while the template is a DRAFT that never reached the Cloud API.
  meta_template_id text unique,
  name text not null,
  language text not null,
  category text not null,
  status text not null,
  rejected_reason text,
  quality_score text,
  quality_score_date timestamptz,
  components jsonb not null,
  static_variables jsonb not null default '{}',
  dynamic_variables jsonb not null default '{}',
  media_id bigint references template_media (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (waba_account_id, name, language)
);
create index templates_list_idx on templates (waba_account_id, updated_at desc, id desc);
create index templates_name_trgm_idx on templates using gin (name gin_trgm_ops);
