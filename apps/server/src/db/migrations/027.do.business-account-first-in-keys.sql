-- The business account first in every key of the tables Citus would distribute by it (issue 18 item 1;
-- decision 056). Citus enforces a primary or unique key only when it holds the distribution column, and keeps a
-- foreign key between two distributed tables only when both sides name it; so every table of a business's data
-- gets waba_account_id, first in its primary key and unique keys, and the foreign keys between them name it.
-- Small global tables stay as they are (Citus reference or coordinator tables): users, refresh_tokens,
-- waba_accounts, phone_numbers (Meta's number id is unique across every account, and the sign-up's upsert
-- relies on it never to take over a number another account holds), sender_leases, attempt_counters, the messaging
-- portfolios (a portfolio spans accounts), webhook_events (stored before their account is known) and
-- worker_heartbeats. catalogue-keys.int.test.ts checks the catalogue against this list.
--
-- The whole migration holds its tables' locks until it commits: stop the API and workers while it runs (171 s
-- for 10 million message rows, 1 million contacts and tag links, measured on a loaded 2-core machine; decision 056).

-- 1. Foreign keys that name a parent by id alone: they go now and come back naming the account (step 5).
alter table broadcasts drop constraint broadcasts_template_id_fkey;
alter table templates drop constraint templates_media_id_fkey;
alter table broadcast_messages drop constraint broadcast_messages_broadcast_id_fkey;
alter table broadcast_messages drop constraint broadcast_messages_contact_id_fkey;
alter table broadcast_messages drop constraint broadcast_messages_reply_id_fkey;
alter table inbound_messages drop constraint inbound_messages_contact_id_fkey;
alter table inbound_messages drop constraint inbound_messages_broadcast_message_id_fkey;
alter table broadcast_audiences drop constraint broadcast_audiences_broadcast_id_fkey;
alter table broadcast_mails drop constraint broadcast_mails_broadcast_id_fkey;
alter table broadcast_removed_outcomes drop constraint broadcast_removed_outcomes_broadcast_id_fkey;

-- 2. The account on the rows of the two big tables that only named their parent, copied from it. Not by an UPDATE:
-- in one transaction its old row versions stay (another snapshot could still see them), so the table doubles and
-- every key rebuilt after it indexes both versions (measured: twice the size). The rows are copied aside with
-- their account, the table emptied (TRUNCATE: a new file, no dead rows) and filled again, then its keys are
-- built once (step 4) by sorting. Every foreign key pointing at them went in step 1, so TRUNCATE may run; it
-- fires no delete trigger, so the Dashboard's figures stay. Ids are kept as they were.
alter table broadcast_messages drop constraint broadcast_messages_pkey;
alter table broadcast_messages drop constraint broadcast_messages_broadcast_id_whatsapp_number_key;
alter table broadcast_messages drop constraint broadcast_messages_wamid_key;
drop index broadcast_messages_reply_idx;
create temporary table messages_with_account on commit drop as
  select m.*, b.waba_account_id from broadcast_messages m join broadcasts b on b.id = m.broadcast_id;
truncate broadcast_messages;
alter table broadcast_messages add column waba_account_id bigint not null;
-- The rows are not new: no trigger of the table (the Dashboard's or any later one) is to see them.
alter table broadcast_messages disable trigger user;
insert into broadcast_messages overriding system value select * from messages_with_account;
alter table broadcast_messages enable trigger user;

alter table contact_tags drop constraint contact_tags_pkey;
drop index contact_tags_tag_idx;
-- A link whose contact is gone has no account and goes (the contacts' delete trigger removes them: none expected).
create temporary table links_with_account on commit drop as
  select ct.*, c.waba_account_id from contact_tags ct join contacts c on c.id = ct.contact_id;
truncate contact_tags;
alter table contact_tags add column waba_account_id bigint not null;
insert into contact_tags select * from links_with_account;

-- 3. The small tables that named their broadcast only: a plain update.
alter table broadcast_audiences add column waba_account_id bigint;
update broadcast_audiences a set waba_account_id = b.waba_account_id from broadcasts b where b.id = a.broadcast_id;
alter table broadcast_audiences alter column waba_account_id set not null;

alter table broadcast_mails add column waba_account_id bigint;
update broadcast_mails m set waba_account_id = b.waba_account_id from broadcasts b where b.id = m.broadcast_id;
alter table broadcast_mails alter column waba_account_id set not null;

alter table broadcast_removed_outcomes add column waba_account_id bigint;
update broadcast_removed_outcomes o set waba_account_id = b.waba_account_id from broadcasts b where b.id = o.broadcast_id;
alter table broadcast_removed_outcomes alter column waba_account_id set not null;

-- 4. The keys, account first. Each table whose primary key was its id alone keeps a plain index on id: the
-- queries that still find a row by id alone (the sender's and settling's locked rows, joins from a broadcast to
-- its template) keep their plans; at Citus time they name the account and the index can go (docs/production.md
-- section 9).
alter table contacts drop constraint contacts_pkey;
alter table contacts add primary key (waba_account_id, id);
create index contacts_id_idx on contacts (id);

alter table tags drop constraint tags_pkey;
alter table tags add primary key (waba_account_id, id);

alter table template_media drop constraint template_media_pkey;
alter table template_media add primary key (waba_account_id, id);
create index template_media_id_idx on template_media (id);

alter table templates drop constraint templates_pkey;
alter table templates add primary key (waba_account_id, id);
create index templates_id_idx on templates (id);
-- Meta's template id, unique per account (a WABA's templates belong to one account: waba_accounts.waba_id is
-- unique); every lookup by it already names the account.
alter table templates drop constraint templates_meta_template_id_key;
alter table templates add constraint templates_meta_template_id_key unique (waba_account_id, meta_template_id);

alter table broadcasts drop constraint broadcasts_pkey;
alter table broadcasts add primary key (waba_account_id, id);
create index broadcasts_id_idx on broadcasts (id);

alter table inbound_messages drop constraint inbound_messages_pkey;
alter table inbound_messages add primary key (waba_account_id, id);
create index inbound_messages_id_idx on inbound_messages (id);
drop index inbound_messages_message_idx;
create index inbound_messages_message_idx on inbound_messages (waba_account_id, broadcast_message_id)
  where broadcast_message_id is not null;

alter table account_events drop constraint account_events_pkey;
alter table account_events add primary key (waba_account_id, id);

alter table account_events_seen drop constraint account_events_seen_pkey;
alter table account_events_seen add primary key (waba_account_id, user_id);

-- No index on id alone: every reader and writer of a message row names its account (each row update would
-- write one more index entry; decision 056).
alter table broadcast_messages add primary key (waba_account_id, id);
alter table broadcast_messages add constraint broadcast_messages_broadcast_id_whatsapp_number_key
  unique (waba_account_id, broadcast_id, whatsapp_number);
-- The status webhook names its WABA, so it finds a message by the account and Meta's id.
alter table broadcast_messages add constraint broadcast_messages_wamid_key unique (waba_account_id, wamid);
create index broadcast_messages_reply_idx on broadcast_messages (waba_account_id, reply_id) where reply_id is not null;

alter table contact_tags add primary key (waba_account_id, contact_id, tag_id);
create index contact_tags_tag_idx on contact_tags (waba_account_id, tag_id, contact_id);

alter table broadcast_audiences drop constraint broadcast_audiences_pkey;
alter table broadcast_audiences add primary key (waba_account_id, broadcast_id);
alter table broadcast_mails drop constraint broadcast_mails_pkey;
alter table broadcast_mails add primary key (waba_account_id, broadcast_id);
drop index broadcast_mails_pending_idx;
create index broadcast_mails_pending_idx on broadcast_mails (waba_account_id, broadcast_id) where outcome is null;
alter table broadcast_removed_outcomes drop constraint broadcast_removed_outcomes_pkey;
alter table broadcast_removed_outcomes add primary key (waba_account_id, broadcast_id, state);

-- 5. The foreign keys back, naming the account: a row can no longer point at another account's parent. A
-- nulled link clears its id only (Postgres 15's column list), never the row's account.
alter table broadcasts add constraint broadcasts_template_id_fkey foreign key (waba_account_id, template_id)
  references templates (waba_account_id, id) on delete set null (template_id);
alter table templates add constraint templates_media_id_fkey foreign key (waba_account_id, media_id)
  references template_media (waba_account_id, id) on delete set null (media_id);
alter table broadcast_messages add constraint broadcast_messages_broadcast_id_fkey foreign key (waba_account_id, broadcast_id)
  references broadcasts (waba_account_id, id) on delete cascade;
alter table broadcast_messages add constraint broadcast_messages_contact_id_fkey foreign key (waba_account_id, contact_id)
  references contacts (waba_account_id, id) on delete set null (contact_id);
alter table broadcast_messages add constraint broadcast_messages_reply_id_fkey foreign key (waba_account_id, reply_id)
  references inbound_messages (waba_account_id, id) on delete set null (reply_id);
alter table inbound_messages add constraint inbound_messages_contact_id_fkey foreign key (waba_account_id, contact_id)
  references contacts (waba_account_id, id) on delete set null (contact_id);
alter table inbound_messages add constraint inbound_messages_broadcast_message_id_fkey
  foreign key (waba_account_id, broadcast_message_id)
  references broadcast_messages (waba_account_id, id) on delete set null (broadcast_message_id);
alter table broadcast_audiences add constraint broadcast_audiences_broadcast_id_fkey foreign key (waba_account_id, broadcast_id)
  references broadcasts (waba_account_id, id) on delete cascade;
alter table broadcast_mails add constraint broadcast_mails_broadcast_id_fkey foreign key (waba_account_id, broadcast_id)
  references broadcasts (waba_account_id, id) on delete cascade;
alter table broadcast_removed_outcomes add constraint broadcast_removed_outcomes_broadcast_id_fkey
  foreign key (waba_account_id, broadcast_id) references broadcasts (waba_account_id, id) on delete cascade;

-- 6. Functions that write or find these rows by their keys.
create or replace function delete_tags_of_removed_contacts() returns trigger language plpgsql as $$
begin
  delete from contact_tags ct using removed r where ct.waba_account_id = r.waba_account_id and ct.contact_id = r.id;
  return null;
end $$;

create or replace function delete_contact_tags_of_removed_tags() returns trigger language plpgsql as $$
begin
  delete from contact_tags ct using removed r where ct.waba_account_id = r.waba_account_id and ct.tag_id = r.id;
  return null;
end $$;

create or replace function broadcasts_completed_mail() returns trigger language plpgsql as $$
begin
  insert into broadcast_mails (waba_account_id, broadcast_id)
  select new.waba_account_id, new.id from account_settings s
   where s.waba_account_id = new.waba_account_id and s.notify_by_email
  on conflict (waba_account_id, broadcast_id) do nothing;
  return null;
end $$;

-- Fresh statistics, so the first queries after the upgrade plan with the new keys.
analyze broadcast_messages;
analyze contact_tags;
