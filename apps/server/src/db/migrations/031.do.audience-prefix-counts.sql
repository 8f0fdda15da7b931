-- Decision 062: the contacts a broadcast may reach (not opted out), counted by number prefix (the first five
-- characters: '+' and four digits, NUMBER_PREFIX in audience-counts.ts) per account, and per account and tag.
-- The cost and recipients estimates of New broadcast read these few hundred rows instead of grouping every
-- contact of the audience (175-350 ms at 1,000,000 contacts on a 2-core machine, against issue 20's 300 ms).
--
-- Kept by statement-level triggers of contacts, contact_tags and tags, in the transaction of the write: one
-- grouped insert of changes per statement however many rows it writes (a COPY chunk of an import included).
-- Changes are appended, never updated in place: a write locks no count row, so a STOP or an edit never waits
-- for an import of the same account to commit (an upsert on one row per prefix would hold it that long). A
-- key's figure is the sum of its rows; the reader folds a key's rows into one when they pile up
-- (audience-counts.ts). A row's `sample` is a number counted under its prefix; the market and the US test read
-- the prefix only, so any number of the prefix stands for all of them, also after that contact has gone.
create table audience_prefix_counts (
  id bigint generated always as identity,
  waba_account_id bigint not null references waba_accounts (id) on delete cascade,
  -- 0 for the whole account, or a tag's id: the contacts carrying that tag.
  tag_id bigint not null,
  prefix text collate "C" not null,
  sample text not null,
  n bigint not null,
  -- Of them, the numbers of twelve characters: US numbers when the prefix is a US one (+1 and ten digits).
  twelve bigint not null,
  primary key (waba_account_id, id)
);
create index audience_prefix_counts_key_idx on audience_prefix_counts (waba_account_id, tag_id, prefix);

-- Appends each (account, tag, prefix)'s change; every trigger below hands its grouped changes here. A key whose
-- account or tag is gone is skipped: its rows go with it (account: cascade; tag: tags_remove_prefix_counts),
-- and an account's delete cascading to its contacts must not insert rows for an account that no longer exists.
create function shift_audience_prefix_counts(
  p_account bigint[], p_tag bigint[], p_prefix text[], p_sample text[], p_n bigint[], p_twelve bigint[]
) returns void language sql as $$
  insert into audience_prefix_counts (waba_account_id, tag_id, prefix, sample, n, twelve)
  select d.account, d.tag, d.prefix, d.sample, d.n, d.twelve
    from unnest(p_account, p_tag, p_prefix, p_sample, p_n, p_twelve) as d (account, tag, prefix, sample, n, twelve)
   where (d.n <> 0 or d.twelve <> 0)
     and exists (select 1 from waba_accounts w where w.id = d.account)
     and (d.tag = 0 or exists (select 1 from tags t where t.waba_account_id = d.account and t.id = d.tag))
$$;

-- Contacts added: counted for the account (a new contact carries no tag yet: its links come after it).
create function audience_counts_contacts_added() returns trigger language plpgsql as $$
begin
  perform shift_audience_prefix_counts(array_agg(account), array_agg(0::bigint), array_agg(prefix),
                                       array_agg(sample), array_agg(n), array_agg(twelve))
     from (select waba_account_id as account, left(whatsapp_number, 5) collate "C" as prefix,
                  min(whatsapp_number collate "C") as sample, count(*) as n,
                  count(*) filter (where length(whatsapp_number) = 12) as twelve
             from added where opted_out_at is null group by 1, 2) d;
  return null;
end $$;
create trigger contacts_count_added after insert on contacts
  referencing new table as added for each statement execute function audience_counts_contacts_added();

-- Contacts removed: uncounted for the account and for each tag they carried. This trigger's name sorts before
-- contacts_remove_tags (migration 009), so it runs first and still finds their links.
create function audience_counts_contacts_removed() returns trigger language plpgsql as $$
begin
  perform shift_audience_prefix_counts(array_agg(account), array_agg(tag), array_agg(prefix),
                                       array_agg(sample), array_agg(-n), array_agg(-twelve))
     from (select r.waba_account_id as account, coalesce(ct.tag_id, 0) as tag,
                  left(r.whatsapp_number, 5) collate "C" as prefix, min(r.whatsapp_number collate "C") as sample,
                  count(*) as n, count(*) filter (where length(r.whatsapp_number) = 12) as twelve
             from removed r
             cross join lateral (select null::bigint as tag_id
                                 union all
                                 select l.tag_id from contact_tags l
                                  where l.waba_account_id = r.waba_account_id and l.contact_id = r.id offset 0) ct
            where r.opted_out_at is null
            group by 1, 2, 3) d;
  return null;
end $$;
create trigger contacts_count_removed after delete on contacts
  referencing old table as removed for each statement execute function audience_counts_contacts_removed();

-- Contacts changed: a new number or an opt-out (or its end) moves the contact between prefixes, or in or out
-- of the counts, for the account and each of its tags. Updates that change neither (names, attributes, a
-- BSUID, the merge of an import's known numbers) leave after the join of the two transition tables. The import
-- turns hash and merge joins off for its transaction (decision 010); this join of two unindexed tuplestores
-- needs them (a nested loop over a chunk's 25,000 rows each side is 625 million comparisons).
create function audience_counts_contacts_changed() returns trigger language plpgsql
set enable_hashjoin = on set enable_mergejoin = on as $$
declare
  v_account bigint[];
  v_id bigint[];
  v_sign int[];
  v_number text[];
begin
  select array_agg(b.waba_account_id), array_agg(b.id), array_agg(s.sign), array_agg(s.number)
    into v_account, v_id, v_sign, v_number
    from old_rows b join new_rows a on a.waba_account_id = b.waba_account_id and a.id = b.id
   cross join lateral (select -1 as sign, b.whatsapp_number as number where b.opted_out_at is null
                       union all
                       select 1, a.whatsapp_number where a.opted_out_at is null) s
   where b.whatsapp_number is distinct from a.whatsapp_number
      or (b.opted_out_at is null) <> (a.opted_out_at is null);
  if v_id is null then
    return null;
  end if;
  perform shift_audience_prefix_counts(array_agg(account), array_agg(tag), array_agg(prefix),
                                       array_agg(sample), array_agg(n), array_agg(twelve))
     from (select x.account, coalesce(ct.tag_id, 0) as tag, left(x.number, 5) collate "C" as prefix,
                  min(x.number collate "C") as sample, sum(x.sign) as n,
                  coalesce(sum(x.sign) filter (where length(x.number) = 12), 0) as twelve
             from unnest(v_account, v_id, v_sign, v_number) as x (account, id, sign, number)
             cross join lateral (select null::bigint as tag_id
                                 union all
                                 select l.tag_id from contact_tags l
                                  where l.waba_account_id = x.account and l.contact_id = x.id offset 0) ct
            group by 1, 2, 3) d;
  return null;
end $$;
create trigger contacts_count_changed after update on contacts
  referencing old table as old_rows new table as new_rows
  for each statement execute function audience_counts_contacts_changed();

-- Links added or removed: the linked contact counted for the tag, or no longer. A link removed with its
-- contact finds no contact here (contacts_count_removed uncounted it already).
create function audience_counts_links_changed() returns trigger language plpgsql as $$
declare
  direction int := case when tg_op = 'INSERT' then 1 else -1 end;
begin
  perform shift_audience_prefix_counts(array_agg(account), array_agg(tag), array_agg(prefix),
                                       array_agg(sample), array_agg(direction * n), array_agg(direction * twelve))
     from (select l.waba_account_id as account, l.tag_id as tag,
                  left(c.whatsapp_number, 5) collate "C" as prefix, min(c.whatsapp_number collate "C") as sample,
                  count(*) as n, count(*) filter (where length(c.whatsapp_number) = 12) as twelve
             from links l
             -- One index probe per link, whatever the session's planner settings (OFFSET 0 keeps it a probe).
             cross join lateral (select c.whatsapp_number from contacts c
                                  where c.waba_account_id = l.waba_account_id and c.id = l.contact_id
                                    and c.opted_out_at is null offset 0) c
            group by 1, 2, 3) d;
  return null;
end $$;
create trigger contact_tags_count_added after insert on contact_tags
  referencing new table as links for each statement execute function audience_counts_links_changed();
create trigger contact_tags_count_removed after delete on contact_tags
  referencing old table as links for each statement execute function audience_counts_links_changed();

-- Tags removed: their counts go (their links' removal, migration 009, skips them: the tag is gone).
create function audience_counts_tags_removed() returns trigger language plpgsql as $$
begin
  delete from audience_prefix_counts p using removed r where p.waba_account_id = r.waba_account_id and p.tag_id = r.id;
  return null;
end $$;
create trigger tags_remove_prefix_counts after delete on tags
  referencing old table as removed for each statement execute function audience_counts_tags_removed();

-- The counts of the contacts already stored.
insert into audience_prefix_counts (waba_account_id, tag_id, prefix, sample, n, twelve)
select c.waba_account_id, 0, left(c.whatsapp_number, 5) collate "C", min(c.whatsapp_number collate "C"), count(*),
       count(*) filter (where length(c.whatsapp_number) = 12)
  from contacts c where c.opted_out_at is null group by 1, 3;
insert into audience_prefix_counts (waba_account_id, tag_id, prefix, sample, n, twelve)
select c.waba_account_id, l.tag_id, left(c.whatsapp_number, 5) collate "C", min(c.whatsapp_number collate "C"),
       count(*), count(*) filter (where length(c.whatsapp_number) = 12)
  from contact_tags l join contacts c on c.waba_account_id = l.waba_account_id and c.id = l.contact_id
 where c.opted_out_at is null group by 1, 2, 3;

-- Migration 022's index served the grouping the counts replace; several tags or a list, still grouped, hash
-- their contacts instead. Dropped: one index fewer for every import to write, and a partial index on the
-- contacts not opted out no longer competes with the primary key for the triggers' probes by id (in a fresh
-- table, statistics say nothing and the planner took it, scanning the account once per link).
drop index contacts_market_prefix_idx;
