import { isUsPrefix } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { audienceQuery, usNumberSql, type AudienceSource } from './audience-sql';
import { LIMIT_WINDOW_SECONDS, PORTFOLIO_OF_WABA } from '../sending/messaging-limit';

/**
 * Numbers are grouped in SQL by their first four digits ('+' and four), which hold the calling code (one to
 * three digits, prefix-free) and for +1 the area code that tells a US number from Canada's and the Caribbean's.
 * Migration 031 keeps counts by this prefix; an audience without kept counts is grouped by it. Byte order ("C"):
 * several times cheaper than the database's language-aware order over a million numbers.
 */
export const NUMBER_PREFIX = (column: string) => `left(${column}, 5) collate "C"`;

/**
 * AUDIENCE_SQL's rules for a tag audience, with the tag test as a plain EXISTS: there, `$2 is null or exists`
 * (one text for everyone and tags) keeps Postgres from turning it into a semi-join, so each of a million
 * contacts probed contact_tags (400 ms); here the tagged contacts are hashed once. The integration tests hold
 * the two to the same recipients.
 */
const TAGGED_SQL = `
  select c.id, c.whatsapp_number
    from contacts c
   where c.waba_account_id = $1
     and c.opted_out_at is null
     and exists (select 1 from contact_tags ct
                  where ct.waba_account_id = c.waba_account_id and ct.contact_id = c.id and ct.tag_id = any($2::bigint[]))
     and not (coalesce($3::boolean, false) and ${usNumberSql('c.whatsapp_number')})`;

/** The audience's SQL for counting it (parameters as audienceQuery's): the same contacts, planned to count fast. */
function countedAudience(source: AudienceSource): { sql: string; ids: number[] | null } {
  return source.kind === 'tags' && source.tagIds !== null
    ? { sql: TAGGED_SQL, ids: source.tagIds }
    : audienceQuery(source);
}

/** One prefix's share of an audience: how many numbers, one of them (its market), and how many are US numbers. */
export interface PrefixGroup {
  sample: string;
  n: number;
  us: number;
}

/**
 * The audience's numbers by prefix (NUMBER_PREFIX): a few hundred groups for a million contacts. Everyone and one
 * tag are read from the counts migration 031's triggers keep (decision 062); any of several tags, or a frozen
 * list, are grouped from the contacts themselves (a contact carrying two of the tags counts once). A group's
 * prefix says whether its numbers are US numbers (isUsPrefix), when whole: ten digits after +1, so twelve
 * characters.
 */
export async function audienceByPrefix(
  pool: Pool,
  accountId: number,
  source: AudienceSource,
  leaveOutUs: boolean,
): Promise<PrefixGroup[]> {
  const groups = await (isCounted(source)
    ? countedGroups(pool, accountId, source.tagIds?.[0] ?? 0)
    : groupedAudience(pool, accountId, source, leaveOutUs));
  return groups
    .map(({ sample, n, twelve }) => {
      const us = isUsPrefix(sample.slice(0, 5)) ? twelve : 0;
      // The counts hold every number: US numbers left out here, as the audience's SQL leaves them out.
      return isCounted(source) && leaveOutUs ? { sample, n: n - us, us: 0 } : { sample, n, us };
    })
    .filter((group) => group.n > 0);
}

interface CountedGroup {
  sample: string;
  n: number;
  twelve: number;
}

/** Whether the audience is one migration 031 counts: everyone, or a single tag. */
function isCounted(source: AudienceSource): source is { kind: 'tags'; tagIds: number[] | null } {
  return source.kind === 'tags' && (source.tagIds === null || source.tagIds.length === 1);
}

/** How many appended rows a key may pile up before a read folds them into one per prefix. */
export const FOLD_ROWS = 2_000;

/**
 * The kept counts of everyone (tag 0) or of one tag: the sum of each prefix's appended changes (migration 031),
 * a few hundred rows once folded. Folding deletes the rows this read sees and inserts their sums in one
 * statement: rows of writes not yet committed are not seen, so not deleted, and count once they commit; two
 * reads folding at once each insert the sums of the rows they alone deleted.
 */
async function countedGroups(pool: Pool, accountId: number, tagId: number): Promise<CountedGroup[]> {
  const { rows } = await pool.query<CountedGroup & { parts: number }>(
    `select min(sample) as sample, sum(n)::int as n, sum(twelve)::int as twelve, count(*)::int as parts
       from audience_prefix_counts where waba_account_id = $1 and tag_id = $2 group by prefix`,
    [accountId, tagId],
  );
  if (rows.reduce((sum, row) => sum + row.parts, 0) > FOLD_ROWS) await foldCounts(pool, accountId, tagId);
  return rows;
}

/** Folds a key's appended rows into one per prefix (see countedGroups); prefixes that sum to nothing go. */
export async function foldCounts(pool: Pool, accountId: number, tagId: number): Promise<void> {
  await pool.query(
    `with folded as (
       delete from audience_prefix_counts where waba_account_id = $1 and tag_id = $2 returning *
     )
     insert into audience_prefix_counts (waba_account_id, tag_id, prefix, sample, n, twelve)
     select $1, $2, prefix, min(sample), sum(n), sum(twelve) from folded
      group by prefix having sum(n) <> 0 or sum(twelve) <> 0`,
    [accountId, tagId],
  );
}

/** The audience's contacts grouped by prefix, for the audiences no count is kept of. */
async function groupedAudience(
  pool: Pool,
  accountId: number,
  source: AudienceSource,
  leaveOutUs: boolean,
): Promise<CountedGroup[]> {
  const audience = countedAudience(source);
  const { rows } = await pool.query<CountedGroup>(
    `select min(a.whatsapp_number collate "C") as sample, count(*)::int as n,
            count(*) filter (where length(a.whatsapp_number) = 12)::int as twelve
       from (${audience.sql}) a group by ${NUMBER_PREFIX('a.whatsapp_number')}`,
    [accountId, audience.ids, leaveOutUs],
  );
  return rows;
}

/**
 * How many of the audience the portfolio reached within the messaging limit's 24-hour window: looked up from
 * the window's numbers (at most the tier's thousands), not the other way round over a million contacts.
 */
export async function reachedInAudience(
  pool: Pool,
  accountId: number,
  source: AudienceSource,
  leaveOutUs: boolean,
): Promise<number> {
  const audience = countedAudience(source);
  const { rows } = await pool.query<{ n: number }>(
    `with k as (select ${PORTFOLIO_OF_WABA} as key from waba_accounts w where w.id = $1)
     select count(*)::int as n
       from portfolio_reach r, k
      where r.portfolio = k.key and r.reached_at > now() - make_interval(secs => $4)
        and exists (select 1 from (${audience.sql}) a where a.whatsapp_number = r.whatsapp_number)`,
    [accountId, audience.ids, leaveOutUs, LIMIT_WINDOW_SECONDS],
  );
  return rows[0]!.n;
}

/**
 * The audience's numbers that already had `messages` marketing messages in the last `days` days (the frequency
 * cap's touches, migration 047): those a marketing broadcast starting now would skip. The window's touches are
 * grouped by person first, from their own index: a few rows per person reached, whatever the audience's size.
 */
export async function cappedInAudience(
  pool: Pool,
  accountId: number,
  source: AudienceSource,
  leaveOutUs: boolean,
  cap: { messages: number; days: number },
): Promise<number> {
  const audience = countedAudience(source);
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n
       from (select t.whatsapp_number from marketing_touches t
              where t.waba_account_id = $1 and t.touched_at > now() - make_interval(days => $5)
              group by t.whatsapp_number having count(*) >= $4) capped
      where exists (select 1 from (${audience.sql}) a where a.whatsapp_number = capped.whatsapp_number)`,
    [accountId, audience.ids, leaveOutUs, cap.messages, cap.days],
  );
  return rows[0]!.n;
}

/**
 * The contacts of the audience's selection (everyone, any of the tags, or the frozen list) who opted out: the
 * audience itself leaves them out, so New broadcast says how many. Read through the partial index of opted-out
 * contacts (migration 036): a few rows, whatever the account's size.
 */
export async function optedOutInAudience(
  pool: Pool,
  accountId: number,
  source: AudienceSource,
): Promise<number> {
  const selection = selectionOf(source);
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n
       from contacts c
      where c.waba_account_id = $1
        and c.opted_out_at is not null
        and ${selection.sql}`,
    [accountId, selection.ids],
  );
  return rows[0]!.n;
}

/** The audience's selection before opt-outs (and the US leave-out), as a condition over `c` and its $2. */
function selectionOf(source: AudienceSource): { sql: string; ids: number[] | null } {
  switch (source.kind) {
    case 'list':
      return { sql: 'c.id = any($2::bigint[])', ids: source.contactIds };
    case 'tags':
      return {
        sql: `($2::bigint[] is null
               or exists (select 1 from contact_tags ct
                           where ct.waba_account_id = c.waba_account_id and ct.contact_id = c.id
                             and ct.tag_id = any($2::bigint[])))`,
        ids: source.tagIds,
      };
    case 'segment':
      return { sql: `$2::bigint[] is null and ${source.where}`, ids: null };
  }
}
