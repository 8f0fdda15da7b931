/**
 * The contacts a broadcast may reach: the account's, not opted out, and for a tag audience those carrying any
 * of the tags. Numbers are unique per account (contacts_waba_number_key), so each number appears once.
 * Parameters: $1 account id, $2 tag ids (null for everyone).
 */
export const AUDIENCE_SQL = `
  select c.id, c.whatsapp_number
    from contacts c
   where c.waba_account_id = $1
     and c.opted_out_at is null
     and ($2::bigint[] is null
          or exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = any($2::bigint[])))`;
