-- Broadcasts and their messages (one row per recipient): the send queue itself (docs/decisions/011).

create table broadcasts (
  id bigint generated always as identity primary key,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  phone_number_id bigint not null references phone_numbers (id),
  template_id bigint references templates (id) on delete set null,
  -- What was sent, kept even if the template is deleted later.
  template_name text not null,
  template_language text not null,
  name text not null,
  audience jsonb not null,
  scheduled_at timestamptz not null,
  status text not null check (status in ('scheduled', 'sending', 'completed', 'cancelled', 'failed')),
  total_recipients int not null default 0,
  -- Exact counts by state, recomputed from the message rows whenever they change.
  accepted_count int not null default 0,
  delivered_count int not null default 0,
  read_count int not null default 0,
  failed_count int not null default 0,
  started_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz not null default now()
);
create index broadcasts_list_idx on broadcasts (waba_account_id, created_at desc, id desc);
create index broadcasts_due_idx on broadcasts (scheduled_at) where status = 'scheduled';

-- States move forward only: queued → sending → accepted → sent → delivered → read; failed is terminal;
-- unconfirmed = was being sent when its sender died, settled only by a status webhook, never re-sent.
create table broadcast_messages (
  id bigint generated always as identity primary key,
  broadcast_id bigint not null references broadcasts (id) on delete cascade,
  contact_id bigint references contacts (id) on delete set null,
  whatsapp_number text not null,
  state text not null default 'queued'
    check (state in ('queued', 'sending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'unconfirmed')),
  wamid text unique,
  error_code int,
  error_title text,
  attempts int not null default 0,
  next_attempt_at timestamptz not null default now(),
  accepted_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  -- When the row became unconfirmed: without a status webhook within UNCONFIRMED_TIMEOUT_SECONDS it fails.
  unconfirmed_at timestamptz,
  unique (broadcast_id, whatsapp_number)
);
create index broadcast_messages_queue_idx on broadcast_messages (broadcast_id, next_attempt_at) where state = 'queued';
create index broadcast_messages_sending_idx on broadcast_messages (broadcast_id) where state = 'sending';

-- One sender per phone number at a time, across every worker: the number's throughput cap is Meta's.
create table sender_leases (
  phone_number_id bigint primary key references phone_numbers (id) on delete cascade,
  holder text not null,
  expires_at timestamptz not null
);
