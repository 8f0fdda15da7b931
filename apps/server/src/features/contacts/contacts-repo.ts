import type { Contact, Tag } from '@herald/contracts';
import type { PoolClient } from 'pg';
import type { Pool } from '../../db/pool';

type Queryable = Pool | PoolClient;

/**
 * With an account's id, the lock an import holds alone for its whole transaction: imports into one account
 * run one after the other. Two at once would each wait for numbers the other has copied in and not
 * committed, and deadlock. Nothing else takes it: an import conflicts with an edit, a tag change or a STOP only
 * where both touch the same contact, number or tag, and row locks and the unique keys settle those (decision 072).
 */
export const CONTACT_IMPORT_LOCK = 4_820_119;

/** Starts an import in the account: waits for another import into it, and for nothing else. */
export async function lockImport(db: PoolClient, wabaId: number): Promise<void> {
  await db.query('select pg_advisory_xact_lock($1, $2)', [CONTACT_IMPORT_LOCK, wabaId]);
}

/** The text the trigram index covers (migration 003); a query must repeat it exactly to use the index. */
export const SEARCH_TEXT = `lower(name || ' ' || whatsapp_number || ' ' || coalesce(email, ''))`;

interface ContactRow {
  id: string;
  name: string;
  whatsapp_number: string;
  age: number | null;
  gender: string | null;
  address: string | null;
  post_code: string | null;
  email: string | null;
  opted_out_at: Date | null;
  bsuid: string | null;
  username: string | null;
  attributes: Record<string, unknown> | null;
}

const CONTACT_COLUMNS =
  'id, name, whatsapp_number, age, gender, address, post_code, email, opted_out_at, bsuid, username, attributes';

/** The custom columns' values as text; Herald's own marks (a replaced contact's `replaced_by`) are not columns. */
function customValues(attributes: Record<string, unknown> | null): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attributes ?? {}).flatMap(([key, value]) =>
      typeof value === 'string' && value !== '' && key !== 'replaced_by' ? [[key, value]] : [],
    ),
  );
}

/**
 * A contact's columns besides name and number, as the form sends them: absent keeps a column, null clears it;
 * `attributes` sets the custom columns it names (an empty value removes one) and keeps the others.
 */
export interface ContactDetails {
  age?: number | null | undefined;
  gender?: string | null | undefined;
  address?: string | null | undefined;
  post_code?: string | null | undefined;
  email?: string | null | undefined;
  attributes?: Record<string, string> | undefined;
}

/** The account's custom columns: the extra columns its imports brought (GET /recipient/cols lists them too). */
export async function customColumns(db: Queryable, wabaId: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'select name from contact_columns where waba_account_id = $1 order by name',
    [wabaId],
  );
  return rows.map((r) => r.name);
}

/** The SET list and values of ContactDetails, after `first` parameters; absent fields are not written. */
function detailsSet(details: ContactDetails, first: number): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const column of ['age', 'gender', 'address', 'post_code', 'email'] as const) {
    if (details[column] === undefined) continue;
    values.push(details[column]);
    parts.push(`${column} = $${first + values.length}`);
  }
  if (details.attributes && Object.keys(details.attributes).length > 0) {
    const set = Object.fromEntries(Object.entries(details.attributes).filter(([, value]) => value !== ''));
    const cleared = Object.keys(details.attributes).filter((key) => details.attributes![key] === '');
    values.push(JSON.stringify(set), cleared);
    parts.push(
      `attributes = (coalesce(attributes, '{}') - $${first + values.length}::text[]) || $${first + values.length - 1}::jsonb`,
    );
  }
  return { sql: parts.map((p) => `, ${p}`).join(''), values };
}

function toContact(row: ContactRow, tags: Contact['tags'] = []): Contact {
  return {
    id: Number(row.id),
    recipient_name: row.name,
    whatsapp_number: row.whatsapp_number,
    recipient_age: row.age,
    recipient_gender: row.gender,
    recipient_address: row.address,
    recipient_post_code: row.post_code,
    recipient_email: row.email,
    tags,
    attributes: customValues(row.attributes),
    opted_out_at: row.opted_out_at?.toISOString() ?? null,
    // Only when a webhook brought them, so a contact with a number answers the spec's fields alone.
    ...(row.bsuid === null ? {} : { bsuid: row.bsuid }),
    ...(row.username === null ? {} : { username: row.username }),
  };
}

/** LIKE patterns for a search: the text itself, plus its digits alone when it reads as a phone fragment. */
export function searchPatterns(search: string): string[] {
  const term = search.trim().toLowerCase();
  const escape = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const patterns = [escape(term)];
  const digits = term.replace(/\D/g, '');
  if (/^[+\d\s().-]+$/.test(term) && digits.length >= 3 && digits !== term) patterns.push(escape(digits));
  return patterns;
}

async function withTags(db: Queryable, wabaId: number, rows: ContactRow[]): Promise<Contact[]> {
  if (rows.length === 0) return [];
  const { rows: tagRows } = await db.query<{ contact_id: string; id: string; name: string }>(
    `select ct.contact_id, t.id, t.name
       from contact_tags ct join tags t on t.waba_account_id = ct.waba_account_id and t.id = ct.tag_id
      where ct.waba_account_id = $1 and ct.contact_id = any($2::bigint[]) order by lower(t.name), t.id`,
    [wabaId, rows.map((row) => row.id)],
  );
  const byContact = new Map<string, Contact['tags']>();
  for (const tag of tagRows) {
    const list = byContact.get(tag.contact_id) ?? [];
    list.push({ id: Number(tag.id), tag_name: tag.name });
    byContact.set(tag.contact_id, list);
  }
  return rows.map((row) => toContact(row, byContact.get(row.id)));
}

/** The account's contact total, kept in contact_counts by every write (0 before the first). */
export async function contactTotal(db: Queryable, wabaId: number): Promise<number> {
  const { rows } = await db.query<{ total: string }>(
    'select total from contact_counts where waba_account_id = $1',
    [wabaId],
  );
  return rows[0] ? Number(rows[0].total) : 0;
}

export async function adjustContactTotal(db: Queryable, wabaId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await db.query(
    `insert into contact_counts (waba_account_id, total) values ($1, greatest($2, 0))
     on conflict (waba_account_id) do update set total = contact_counts.total + $2`,
    [wabaId, delta],
  );
}

/** `(text like $n or text like $n+1)`: separate LIKEs, because GIN indexes cannot serve `like any(array)`. */
function searchFilter(patterns: string[], firstParameter: number): string {
  return `(${patterns.map((_, i) => `${SEARCH_TEXT} like $${firstParameter + i}`).join(' or ')})`;
}

/**
 * What the list can be narrowed by: search patterns, tags (any of them), whether the contact opted out, and a
 * segment's condition over `contacts` (segmentWhereSql).
 */
export interface ContactFilter {
  patterns?: string[];
  tagIds?: number[];
  optedOut?: boolean;
  segmentSql?: string;
}

export function isFiltered(filter: ContactFilter): boolean {
  return (
    Boolean(filter.patterns) ||
    Boolean(filter.tagIds?.length) ||
    filter.optedOut !== undefined ||
    filter.segmentSql !== undefined
  );
}

/** The filter's SQL conditions (each starting with 'and') over `contacts`, with its parameters from $first. */
function filterSql(filter: ContactFilter, first: number): { sql: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  if (filter.patterns) {
    parts.push(`and ${searchFilter(filter.patterns, first)}`);
    values.push(...filter.patterns);
  }
  if (filter.tagIds?.length) {
    values.push(filter.tagIds);
    parts.push(
      `and exists (select 1 from contact_tags ct
                    where ct.waba_account_id = contacts.waba_account_id and ct.contact_id = contacts.id
                      and ct.tag_id = any($${first + values.length - 1}::bigint[]))`,
    );
  }
  if (filter.optedOut !== undefined) parts.push(`and opted_out_at is ${filter.optedOut ? 'not ' : ''}null`);
  if (filter.segmentSql !== undefined) parts.push(`and ${filter.segmentSql}`);
  return { sql: parts.join(' '), values };
}

export async function countMatching(db: Queryable, wabaId: number, filter: ContactFilter): Promise<number> {
  const where = filterSql(filter, 2);
  const { rows } = await db.query<{ count: number }>(
    `select count(*)::int as count from contacts where waba_account_id = $1 ${where.sql}`,
    [wabaId, ...where.values],
  );
  return rows[0]!.count;
}

/**
 * One page, newest first. The inner query finds the page's ids from an index alone (deep offsets then skip
 * index entries, not rows); the outer one reads only those rows.
 */
export async function listContacts(
  db: Queryable,
  wabaId: number,
  page: { limit: number; offset: number; filter: ContactFilter },
): Promise<Contact[]> {
  const where = filterSql(page.filter, 4);
  const { rows } = await db.query<ContactRow>(
    `select ${CONTACT_COLUMNS} from contacts
      where waba_account_id = $1 and id in (
        select id from contacts where waba_account_id = $1 ${where.sql}
         order by created_at desc, id desc limit $2 offset $3)
      order by created_at desc, id desc`,
    [wabaId, page.limit, page.offset, ...where.values],
  );
  return withTags(db, wabaId, rows);
}

export async function findContact(db: Queryable, wabaId: number, id: number): Promise<Contact | undefined> {
  const { rows } = await db.query<ContactRow>(
    `select ${CONTACT_COLUMNS} from contacts where waba_account_id = $1 and id = $2`,
    [wabaId, id],
  );
  return rows[0] ? (await withTags(db, wabaId, rows))[0] : undefined;
}

export async function findContactByNumber(
  db: Queryable,
  wabaId: number,
  number: string,
): Promise<{ id: number; name: string } | undefined> {
  const { rows } = await db.query<{ id: string; name: string }>(
    'select id, name from contacts where waba_account_id = $1 and whatsapp_number = $2',
    [wabaId, number],
  );
  return rows[0] ? { id: Number(rows[0].id), name: rows[0].name } : undefined;
}

/** Inserts the contact unless the account already has its number (then answers undefined). */
export async function insertContact(
  db: Queryable,
  wabaId: number,
  contact: { name: string; number: string } & ContactDetails,
): Promise<Contact | undefined> {
  const { rows } = await db.query<ContactRow>(
    `insert into contacts (waba_account_id, name, whatsapp_number, age, gender, address, post_code, email, attributes)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
     on conflict (waba_account_id, whatsapp_number) do nothing
     returning ${CONTACT_COLUMNS}`,
    [
      wabaId,
      contact.name,
      contact.number,
      contact.age ?? null,
      contact.gender ?? null,
      contact.address ?? null,
      contact.post_code ?? null,
      contact.email ?? null,
      JSON.stringify(
        Object.fromEntries(Object.entries(contact.attributes ?? {}).filter(([, value]) => value !== '')),
      ),
    ],
  );
  return rows[0] ? toContact(rows[0]) : undefined;
}

/** Renames, renumbers and sets the given columns of a contact of this account; undefined when it has none such. */
export async function updateContact(
  db: Queryable,
  wabaId: number,
  id: number,
  contact: { name: string; number: string } & ContactDetails,
): Promise<Contact | undefined> {
  const details = detailsSet(contact, 4);
  const { rows } = await db.query<ContactRow>(
    `update contacts set name = $3, whatsapp_number = $4${details.sql}, updated_at = now()
      where waba_account_id = $1 and id = $2
      returning ${CONTACT_COLUMNS}`,
    [wabaId, id, contact.name, contact.number, ...details.values],
  );
  return rows[0] ? (await withTags(db, wabaId, rows))[0] : undefined;
}

export async function deleteContact(db: Queryable, wabaId: number, id: number): Promise<boolean> {
  const { rowCount } = await db.query('delete from contacts where waba_account_id = $1 and id = $2', [
    wabaId,
    id,
  ]);
  return rowCount === 1;
}

export async function listTags(db: Queryable, wabaId: number): Promise<Tag[]> {
  const { rows } = await db.query<{ id: string; name: string; count: number }>(
    `select t.id, t.name, count(ct.contact_id)::int as count
       from tags t left join contact_tags ct on ct.waba_account_id = t.waba_account_id and ct.tag_id = t.id
      where t.waba_account_id = $1
      group by t.waba_account_id, t.id
      order by lower(t.name), t.id`,
    [wabaId],
  );
  return rows.map((row) => ({ id: Number(row.id), name: row.name, count: row.count }));
}

/** The tag of this name in this account (names compare case-insensitively), created when missing. */
export async function ensureTag(db: Queryable, wabaId: number, name: string): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `insert into tags (waba_account_id, name) values ($1, $2)
     on conflict (waba_account_id, lower(name)) do update set name = tags.name
     returning id`,
    [wabaId, name],
  );
  return Number(rows[0]!.id);
}

/**
 * The id of the account's tag of this name, locked against its delete (FOR KEY SHARE: a rename, and the
 * upserts of other writers tagging with it, do not wait); undefined when the account has no such tag.
 */
export async function lockExistingTag(
  db: PoolClient,
  wabaId: number,
  name: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ id: string }>(
    'select id from tags where waba_account_id = $1 and lower(name) = lower($2) for key share',
    [wabaId, name],
  );
  return rows[0] ? Number(rows[0].id) : undefined;
}

export async function extraColumns(db: Queryable, wabaId: number): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'select name from contact_columns where waba_account_id = $1 order by name',
    [wabaId],
  );
  return rows.map((row) => row.name);
}

export async function recordExtraColumns(db: Queryable, wabaId: number, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    `insert into contact_columns (waba_account_id, name) select $1, unnest($2::text[])
     on conflict do nothing`,
    [wabaId, names],
  );
}
