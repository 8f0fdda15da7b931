import type { BroadcastListQuery, BroadcastRow } from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { HttpError } from '../../../http-error';
import type { OwnedWaba } from '../../../owned-waba';
import { freshenCounts } from '../broadcast-counts';
import { UNANSWERED_REASON_SQL } from '../sending/unanswered-sends';

const PAGE_SIZE = 10;

const percent = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 1000) / 10 : 0);

/** The history's filter: $1 the account, $2 the search pattern, $3/$4 the first and last local day, $5 the zone. */
const WHERE = `waba_account_id = $1
  and ($2::text is null or name ilike $2 or template_name ilike $2)
  and ($3::date is null or scheduled_at >= $3::date::timestamp at time zone $5)
  and ($4::date is null or scheduled_at < ($4::date + 1)::timestamp at time zone $5)`;

const ROW_SQL = `
  select id::int, name, template_name, scheduled_at, status, total_recipients, sent_count, handed_count,
         delivered_count, read_count, failed_count, unknown_count, limited_count, not_on_whatsapp_count, expired_count,
         skipped_count, replied_count,
         -- A sending broadcast's reason is only ever the current one: WhatsApp not answering (decision 055).
         case when status <> 'sending' then status_reason
              when unanswered_since is not null then ${UNANSWERED_REASON_SQL('$5')} end as status_reason,
         waiting_until, spend_cap::text,
         -- Who clicked its tracked link: few rows, read from their own index (null without a tracked link).
         case when link_destination is not null then
           (select count(*)::int from broadcast_messages m
             where m.waba_account_id = broadcasts.waba_account_id and m.broadcast_id = broadcasts.id
               and m.clicked_at is not null) end as clicked_count,
         (select p.display_phone_number from phone_numbers p where p.id = broadcasts.phone_number_id) as phone_number,
         -- A follow-up names the broadcast it follows up (follow-ups.ts).
         case when follow_up_of is not null then
           (select json_build_object('id', p.id, 'name', p.name, 'unless', broadcasts.follow_up_unless,
                                     'after_hours', broadcasts.follow_up_after_hours)
              from broadcasts p where p.waba_account_id = broadcasts.waba_account_id and p.id = broadcasts.follow_up_of)
         end as follow_up_of,
         -- Paused with nothing left for Herald to send (no audience to write, nothing queued): decision 036.
         status = 'paused'
           and not exists (select 1 from broadcast_audiences a
                            where a.waba_account_id = broadcasts.waba_account_id and a.broadcast_id = broadcasts.id)
           and not exists (select 1 from broadcast_messages m
                            where m.waba_account_id = broadcasts.waba_account_id and m.broadcast_id = broadcasts.id
                              and m.state in ('queued', 'sending')) as all_handed
    from broadcasts where ${WHERE}`;

type ListRow = {
  id: number;
  name: string;
  template_name: string;
  scheduled_at: Date;
  status: string;
  total_recipients: number;
  sent_count: number;
  handed_count: number;
  delivered_count: number;
  read_count: number;
  failed_count: number;
  unknown_count: number;
  limited_count: number;
  not_on_whatsapp_count: number;
  expired_count: number;
  skipped_count: number;
  replied_count: number;
  clicked_count: number | null;
  status_reason: string | null;
  spend_cap: string | null;
  phone_number: string | null;
  waiting_until: Date | null;
  all_handed: boolean;
  follow_up_of: BroadcastRow['follow_up_of'];
};

type Filter = Pick<BroadcastListQuery, 'search' | 'sort' | 'from' | 'to' | 'tz'>;

function filterParams(waba: OwnedWaba, query: Filter): unknown[] {
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, '\\$&')}%` : null;
  return [waba.id, search, query.from ?? null, query.to ?? null, query.tz];
}

const orderOf = (query: Filter) =>
  query.sort === 'oldest' ? 'created_at asc, id asc' : 'created_at desc, id desc';

/** Intl knew the zone (the contract checks it) but this Postgres does not: the caller's field, not a 500. */
async function inZone<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if ((error as { code?: string }).code === '22023' && /time zone/i.test((error as Error).message)) {
      throw HttpError.field(400, 'tz', 'tz is a time zone the database does not know');
    }
    throw error;
  }
}

function toRow(row: ListRow): BroadcastRow {
  const of = (part: number) => percent(part, row.total_recipients);
  return {
    id: row.id,
    name: row.name,
    template_name: row.template_name,
    scheduled: row.scheduled_at.toISOString(),
    status: row.status,
    total_recipients: row.total_recipients,
    sent_percentage: of(row.sent_count),
    handed_percentage: of(row.handed_count),
    delivered_percentage: of(row.delivered_count),
    read_percentage: of(row.read_count),
    failed_percentage: of(row.failed_count),
    unknown_percentage: of(row.unknown_count),
    limited_percentage: of(row.limited_count),
    not_on_whatsapp_percentage: of(row.not_on_whatsapp_count),
    expired_percentage: of(row.expired_count),
    skipped_percentage: of(row.skipped_count),
    replied_percentage: of(row.replied_count),
    status_reason: row.status_reason,
    phone_number: row.phone_number,
    waiting_until: row.waiting_until?.toISOString() ?? null,
    all_handed: row.all_handed,
    follow_up_of: row.follow_up_of ?? null,
    spend_cap: row.spend_cap === null ? null : Number(row.spend_cap),
    clicked_percentage: row.clicked_count === null ? null : of(row.clicked_count),
  };
}

/**
 * GET /broadcast/create/: one page of the account's broadcasts in the date range (local days of the Scheduled time)
 * and search, and the summary cards over exactly those broadcasts. A scheduled broadcast's recipients are counted
 * apart (`scheduled_recipients`), so the cards' percentages are of recipients of broadcasts that started.
 */
export async function listBroadcasts(
  pool: Pool,
  waba: OwnedWaba,
  query: BroadcastListQuery,
  pageUrl: (page: number) => string,
) {
  const params = filterParams(waba, query);
  await freshenCounts(pool, waba.id);
  const [rows, totals] = await inZone(() =>
    Promise.all([
      pool.query<ListRow>(`${ROW_SQL} order by ${orderOf(query)} limit $6 offset $7`, [
        ...params,
        PAGE_SIZE,
        (query.page - 1) * PAGE_SIZE,
      ]),
      pool.query<Record<string, number>>(
        `select count(*)::int as broadcasts,
                coalesce(sum(total_recipients) filter (where status <> 'scheduled'), 0)::int as recipients,
                coalesce(sum(total_recipients) filter (where status = 'scheduled'), 0)::int as scheduled_recipients,
                coalesce(sum(sent_count), 0)::int as sent, coalesce(sum(handed_count), 0)::int as handed,
                coalesce(sum(delivered_count), 0)::int as delivered,
                coalesce(sum(read_count), 0)::int as read, coalesce(sum(failed_count), 0)::int as failed,
                coalesce(sum(limited_count), 0)::int as limited,
                coalesce(sum(not_on_whatsapp_count), 0)::int as not_on_whatsapp,
                coalesce(sum(expired_count), 0)::int as expired,
                coalesce(sum(skipped_count), 0)::int as skipped,
                count(*) filter (where status = 'scheduled')::int as scheduled,
                count(*) filter (where status = 'sending')::int as sending
           from broadcasts where ${WHERE}`,
        params,
      ),
    ]),
  );
  const t = totals.rows[0]!;
  const total = t.broadcasts!;
  return {
    count: total,
    next: query.page * PAGE_SIZE < total ? pageUrl(query.page + 1) : null,
    previous: query.page > 1 ? pageUrl(query.page - 1) : null,
    results: rows.rows.map(toRow),
    totals: {
      broadcasts: total,
      recipients: t.recipients!,
      scheduled_recipients: t.scheduled_recipients!,
      sent: t.sent!,
      handed: t.handed!,
      delivered: t.delivered!,
      read: t.read!,
      failed: t.failed!,
      limited: t.limited!,
      not_on_whatsapp: t.not_on_whatsapp!,
      expired: t.expired!,
      skipped: t.skipped!,
      scheduled: t.scheduled!,
      sending: t.sending!,
    },
  };
}

/** Every broadcast the history's filter shows, in its order (no paging): the history's CSV (history-csv.ts). */
export async function allListedBroadcasts(
  pool: Pool,
  waba: OwnedWaba,
  query: Filter,
): Promise<BroadcastRow[]> {
  await freshenCounts(pool, waba.id);
  const { rows } = await inZone(() =>
    pool.query<ListRow>(`${ROW_SQL} order by ${orderOf(query)}`, filterParams(waba, query)),
  );
  return rows.map(toRow);
}
