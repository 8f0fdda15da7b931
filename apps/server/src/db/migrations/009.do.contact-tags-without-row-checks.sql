-- contact_tags without per-row foreign-key checks (docs/decisions/014). Each checked row runs a query of its
-- own: 6.5 s for the two keys of a million links, measured, against 20-24 s for the COPY of the million
-- contacts themselves with every index; a tagged import would spend a quarter of its time on them.
--
-- What the keys guaranteed still holds:
-- - links name existing contacts and tags of one account: their one writer, the import, links only contacts
--   it has just inserted or locked (ON CONFLICT DO UPDATE locks every row it meets) to a tag of its account;
-- - deletes cascade, by statement-level triggers: one delete per statement, however many rows it removes.
alter table contact_tags drop constraint contact_tags_contact_id_fkey;
alter table contact_tags drop constraint contact_tags_tag_id_fkey;

create function delete_tags_of_removed_contacts() returns trigger language plpgsql as $$
begin
  delete from contact_tags ct using removed r where ct.contact_id = r.id;
  return null;
end $$;
create trigger contacts_remove_tags after delete on contacts
  referencing old table as removed for each statement execute function delete_tags_of_removed_contacts();

create function delete_contact_tags_of_removed_tags() returns trigger language plpgsql as $$
begin
  delete from contact_tags ct using removed r where ct.tag_id = r.id;
  return null;
end $$;
create trigger tags_remove_contact_tags after delete on tags
  referencing old table as removed for each statement execute function delete_contact_tags_of_removed_tags();
