// The merge of an import's staged rows (import_chunk, in the import's transaction) into contacts.
import type { PoolClient } from 'pg';
import { type ImportHeader, providedColumns } from './import-rows';

/**
 * Merges one staged chunk of rows whose numbers exist (or came earlier in the file): the last row of each
 * number wins within the chunk (and later chunks overwrite earlier ones, so across the file too); only the
 * columns the file has are updated, and only rows whose values change are rewritten, so a re-import of the
 * same file writes nothing but missing tags. Answers how many contacts it created.
 *
 * Every contact it touches is locked until the import commits, against a delete at least (by the lookup before
 * the merge); one the merge rewrites, against any write, so an edit or STOP of it waits and applies on top.
 */
export async function mergeChunk(
  client: PoolClient,
  wabaId: number,
  header: ImportHeader,
  tagId: number | undefined,
): Promise<number> {
  const columns = providedColumns(header).filter((column) => column !== 'whatsapp_number');
  const assign = columns.map((column) =>
    column === 'attributes'
      ? 'attributes = c.attributes || excluded.attributes'
      : `${column} = excluded.${column}`,
  );
  const changed = columns.map((column) =>
    column === 'attributes'
      ? 'c.attributes is distinct from c.attributes || excluded.attributes'
      : `c.${column} is distinct from excluded.${column}`,
  );
  const tagTarget =
    tagId === undefined
      ? 'insert into import_ids (id) select id'
      : `insert into contact_tags (waba_account_id, contact_id, tag_id) select $1, id, ${tagId}`;
  // The ids of the chunk's numbers, looked up before the merge: the merge returns only the rows it
  // rewrites, and inside it a lookup would also walk the index entries that statement is adding. Locked
  // against a delete, which would otherwise leave the tag linked to a contact gone.
  await client.query(
    `insert into import_before (id)
     select c.id
       from (select distinct whatsapp_number from import_chunk) s
       cross join lateral (
         select id from contacts
          where waba_account_id = $1 and whatsapp_number = s.whatsapp_number
          order by waba_account_id, whatsapp_number limit 1 for key share) c`,
    [wabaId],
  );
  // A stored contact deleted since the import began is inserted again (`created`).
  const { rows } = await client.query<{ created: number }>(
    `with s as (
       select distinct on (whatsapp_number) * from import_chunk order by whatsapp_number, line desc
     ),
     merged as (
       insert into contacts as c
         (waba_account_id, name, whatsapp_number, age, gender, address, post_code, email, attributes)
       select $1, name, whatsapp_number, age, gender, address, post_code, email, coalesce(attributes, '{}')
         from s order by line
       on conflict (waba_account_id, whatsapp_number) do update
         set ${assign.join(', ')}, updated_at = now()
         where ${changed.join(' or ')}
       returning c.id, c.xmax = 0 as inserted
     ),
     tagged as (
       ${tagTarget} from (select id from merged union select id from import_before) ids
       ${tagId === undefined ? '' : 'on conflict do nothing'}
     )
     select (select count(*) from merged where inserted)::int as created`,
    [wabaId],
  );
  await client.query('truncate import_chunk, import_before');
  return rows[0]!.created;
}
