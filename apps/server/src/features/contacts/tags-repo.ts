import type { Tag } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

/** What a bulk change did: `matched` of the requested contacts are the account's, `changed` gained or lost the tag. */
export interface BulkOutcome {
  tag: Tag | undefined;
  matched: number;
  changed: number;
}

interface BulkRow {
  tag_id: string | null;
  tag_name: string | null;
  tag_count: number | null;
  matched: number;
  changed: number;
}

function outcome(row: BulkRow): BulkOutcome {
  const tag =
    row.tag_id === null ? undefined : { id: Number(row.tag_id), name: row.tag_name!, count: row.tag_count! };
  return { tag, matched: row.matched, changed: row.changed };
}

/**
 * Tags the account's contacts among `contactIds` with `tagName`, creating the tag when missing: one
 * statement however many contacts. The contacts are locked (FOR KEY SHARE) before they are linked, so a
 * concurrent delete waits and then removes the links with them (decision 014: contact_tags has no foreign
 * keys, so a writer links only rows it has locked). The count adds this statement's links to what its
 * snapshot sees, since a statement does not see its own inserts.
 */
export async function addTagToContacts(
  db: Queryable,
  wabaId: number,
  contactIds: number[],
  tagName: string,
): Promise<BulkOutcome> {
  const { rows } = await db.query<BulkRow>(
    `with tag as (
       insert into tags (waba_account_id, name) values ($1, $3)
       on conflict (waba_account_id, lower(name)) do update set name = tags.name
       returning id, name),
     target as (
       select id from contacts where waba_account_id = $1 and id = any($2::bigint[]) for key share),
     added as (
       insert into contact_tags (waba_account_id, contact_id, tag_id)
       select $1, target.id, tag.id from target cross join tag
       on conflict do nothing
       returning contact_id)
     select tag.id as tag_id, tag.name as tag_name,
            ((select count(*) from contact_tags ct where ct.waba_account_id = $1 and ct.tag_id = tag.id)
              + (select count(*) from added))::int as tag_count,
            (select count(*) from target)::int as matched,
            (select count(*) from added)::int as changed
       from tag`,
    [wabaId, contactIds, tagName],
  );
  return outcome(rows[0]!);
}

/** Locks the account's tag of this name, if it has one, against every other lock of the row (FOR UPDATE). */
export async function lockTagForLinking(db: PoolClient, wabaId: number, tagName: string): Promise<void> {
  await db.query('select 1 from tags where waba_account_id = $1 and lower(name) = lower($2) for update', [
    wabaId,
    tagName,
  ]);
}

/** Takes the account's tag `tagId` off the account's contacts among `contactIds`: one statement. */
export async function removeTagFromContacts(
  db: Queryable,
  wabaId: number,
  contactIds: number[],
  tagId: number,
): Promise<BulkOutcome> {
  const { rows } = await db.query<BulkRow>(
    `with tag as (select id, name from tags where waba_account_id = $1 and id = $3),
     target as (select id from contacts where waba_account_id = $1 and id = any($2::bigint[])),
     removed as (
       delete from contact_tags ct using tag, target
        where ct.waba_account_id = $1 and ct.tag_id = tag.id and ct.contact_id = target.id
       returning ct.contact_id)
     select tag.id as tag_id, tag.name as tag_name,
            ((select count(*) from contact_tags ct where ct.waba_account_id = $1 and ct.tag_id = tag.id)
              - (select count(*) from removed))::int as tag_count,
            (select count(*) from target)::int as matched,
            (select count(*) from removed)::int as changed
       from (select 1) one left join tag on true`,
    [wabaId, contactIds, tagId],
  );
  return outcome(rows[0]!);
}

/** Renames the account's tag; undefined when it has no such tag. A name another tag has raises 23505. */
export async function renameTag(
  db: Queryable,
  wabaId: number,
  tagId: number,
  name: string,
): Promise<Tag | undefined> {
  const { rows } = await db.query<{ id: string; name: string; count: number }>(
    `update tags set name = $3 where waba_account_id = $1 and id = $2
     returning id, name,
               (select count(*) from contact_tags ct where ct.waba_account_id = $1 and ct.tag_id = tags.id)::int as count`,
    [wabaId, tagId, name],
  );
  return rows[0] ? { id: Number(rows[0].id), name: rows[0].name, count: rows[0].count } : undefined;
}

/**
 * Deletes the account's tag (the statement trigger of migration 009 removes its links); answers it with the
 * number of contacts that carried it, or undefined when the account has no such tag.
 */
export async function deleteTag(db: Queryable, wabaId: number, tagId: number): Promise<Tag | undefined> {
  const { rows } = await db.query<{ id: string; name: string; count: number }>(
    `delete from tags where waba_account_id = $1 and id = $2
     returning id, name,
               (select count(*) from contact_tags ct where ct.waba_account_id = $1 and ct.tag_id = tags.id)::int as count`,
    [wabaId, tagId],
  );
  return rows[0] ? { id: Number(rows[0].id), name: rows[0].name, count: rows[0].count } : undefined;
}

/**
 * Makes `names` the contact's whole set of tags (creating missing tags of the account). The caller has just
 * inserted or updated the contact in this transaction, so its row is locked (decision 014).
 */
export async function setContactTags(
  db: PoolClient,
  wabaId: number,
  contactId: number,
  names: string[],
): Promise<void> {
  await db.query(
    `with wanted as (
       insert into tags (waba_account_id, name) select $1, unnest($3::text[])
       on conflict (waba_account_id, lower(name)) do update set name = tags.name
       returning id),
     dropped as (
       delete from contact_tags
        where waba_account_id = $1 and contact_id = $2 and tag_id not in (select id from wanted))
     insert into contact_tags (waba_account_id, contact_id, tag_id) select $1, $2, id from wanted
     on conflict do nothing`,
    [wabaId, contactId, names],
  );
}

/** How many of `tagIds` are tags of the account. */
export async function countAccountTags(db: Queryable, wabaId: number, tagIds: number[]): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'select count(*)::int as count from tags where waba_account_id = $1 and id = any($2::bigint[])',
    [wabaId, tagIds],
  );
  return rows[0]!.count;
}
