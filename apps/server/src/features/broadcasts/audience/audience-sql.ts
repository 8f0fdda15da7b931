import { NON_US_AREA_CODES } from '@herald/contracts';

/**
 * Whether `column` holds a US number in Meta's sense (+1 and a US area code, decision 026), as isUsNumber in
 * packages/contracts says; the area codes are a constant, written into the SQL text.
 */
export const usNumberSql = (column: string) =>
  `(${column} ~ '^\\+1[0-9]{10}$' and substr(${column}, 3, 3) <> all('{${NON_US_AREA_CODES.join(',')}}'::text[]))`;

/**
 * The contacts a broadcast may reach: the account's, not opted out, and for a tag audience those carrying any
 * of the tags; with $3 true, not the US numbers, to which Meta does not deliver marketing templates
 * (decision 026). Numbers are unique per account (contacts_waba_number_key), so each number appears once.
 * Parameters: $1 account id, $2 tag ids (null for everyone), $3 leave out US numbers (null = no).
 */
export const AUDIENCE_SQL = `
  select c.id, c.whatsapp_number
    from contacts c
   where c.waba_account_id = $1
     and c.opted_out_at is null
     and ($2::bigint[] is null
          or exists (select 1 from contact_tags ct
                      where ct.waba_account_id = c.waba_account_id and ct.contact_id = c.id
                        and ct.tag_id = any($2::bigint[])))
     and not (coalesce($3::boolean, false) and ${usNumberSql('c.whatsapp_number')})`;

/**
 * A list audience frozen at creation (retargeting an earlier broadcast's recipients, decision 037), with the same
 * parameters: $1 account id, $2 the list's contact ids, $3 leave out US numbers. Opted-out contacts and
 * contacts deleted since are left out; each contact is sent to at its number now.
 */
export const LIST_AUDIENCE_SQL = `
  select c.id, c.whatsapp_number
    from contacts c
   where c.waba_account_id = $1
     and c.opted_out_at is null
     and c.id = any($2::bigint[])
     and not (coalesce($3::boolean, false) and ${usNumberSql('c.whatsapp_number')})`;

/**
 * A segment's audience (decision 100), with the same parameters ($2 unused, null): the segment's condition
 * (segmentWhereSql over `c`, its values written in) over the account's contacts who did not opt out.
 */
function segmentAudienceSql(where: string): string {
  return `
  select c.id, c.whatsapp_number
    from contacts c
   where c.waba_account_id = $1
     and c.opted_out_at is null
     and $2::bigint[] is null
     and ${where}
     and not (coalesce($3::boolean, false) and ${usNumberSql('c.whatsapp_number')})`;
}

/**
 * Who a broadcast reaches: everyone or tagged contacts (sampled at the start), a list frozen at creation, or a
 * segment's members when it starts (`where`: its condition over `c`).
 */
export type AudienceSource =
  | { kind: 'tags'; tagIds: number[] | null }
  | { kind: 'list'; contactIds: number[] }
  | { kind: 'segment'; where: string };

/** The audience's SQL and its $2 (every text takes $1 account id, $2 tag or contact ids, $3 leave out US). */
export function audienceQuery(source: AudienceSource): { sql: string; ids: number[] | null } {
  switch (source.kind) {
    case 'list':
      return { sql: LIST_AUDIENCE_SQL, ids: source.contactIds };
    case 'tags':
      return { sql: AUDIENCE_SQL, ids: source.tagIds };
    case 'segment':
      return { sql: segmentAudienceSql(source.where), ids: null };
  }
}
