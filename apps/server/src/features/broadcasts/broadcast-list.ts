import type { BroadcastListQuery, BroadcastRow } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import type { OwnedWaba } from '../accounts/accounts-repo';

const PAGE_SIZE = 10;

const percent = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 1000) / 10 : 0);

/** GET /broadcast/: one page of the account's broadcasts and the history's summary cards. */
export async function listBroadcasts(
  pool: Pool,
  waba: OwnedWaba,
  query: BroadcastListQuery,
  pageUrl: (page: number) => string,
) {
  const search = query.search ? `%${query.search.replace(/[\\%_]/g, '\\$&')}%` : null;
  const order = query.sort === 'oldest' ? 'created_at asc, id asc' : 'created_at desc, id desc';
  const where = 'waba_account_id = $1 and ($2::text is null or name ilike $2 or template_name ilike $2)';
  const [count, rows, totals] = await Promise.all([
    pool.query<{ n: number }>(`select count(*)::int as n from broadcasts where ${where}`, [waba.id, search]),
    pool.query<{
      id: number;
      name: string;
      template_name: string;
      scheduled_at: Date;
      status: string;
      total_recipients: number;
      accepted_count: number;
      delivered_count: number;
      read_count: number;
      failed_count: number;
      unknown_count: number;
      limited_count: number;
      not_on_whatsapp_count: number;
      replied_count: number;
      status_reason: string | null;
      phone_number: string | null;
      waiting_until: Date | null;
    }>(
      `select id::int, name, template_name, scheduled_at, status, total_recipients, accepted_count, delivered_count,
              read_count, failed_count, unknown_count, limited_count, not_on_whatsapp_count, replied_count, status_reason, waiting_until,
              (select p.display_phone_number from phone_numbers p where p.id = broadcasts.phone_number_id) as phone_number
         from broadcasts where ${where} order by ${order} limit $3 offset $4`,
      [waba.id, search, PAGE_SIZE, (query.page - 1) * PAGE_SIZE],
    ),
    pool.query<Record<string, number>>(
      `select count(*)::int as broadcasts, coalesce(sum(total_recipients), 0)::int as recipients,
              coalesce(sum(accepted_count), 0)::int as sent, coalesce(sum(delivered_count), 0)::int as delivered,
              coalesce(sum(read_count), 0)::int as read, coalesce(sum(failed_count), 0)::int as failed,
              coalesce(sum(limited_count), 0)::int as limited,
              coalesce(sum(not_on_whatsapp_count), 0)::int as not_on_whatsapp,
              count(*) filter (where status = 'scheduled')::int as scheduled,
              count(*) filter (where status = 'sending')::int as sending
         from broadcasts where waba_account_id = $1`,
      [waba.id],
    ),
  ]);
  const total = count.rows[0]!.n;
  const results: BroadcastRow[] = rows.rows.map((row) => ({
    id: row.id,
    name: row.name,
    template_name: row.template_name,
    scheduled: row.scheduled_at.toISOString(),
    status: row.status,
    total_recipients: row.total_recipients,
    sent_percentage: percent(row.accepted_count, row.total_recipients),
    delivered_percentage: percent(row.delivered_count, row.total_recipients),
    read_percentage: percent(row.read_count, row.total_recipients),
    failed_percentage: percent(row.failed_count, row.total_recipients),
    unknown_percentage: percent(row.unknown_count, row.total_recipients),
    limited_percentage: percent(row.limited_count, row.total_recipients),
    not_on_whatsapp_percentage: percent(row.not_on_whatsapp_count, row.total_recipients),
    replied_percentage: percent(row.replied_count, row.total_recipients),
    status_reason: row.status_reason,
    phone_number: row.phone_number,
    waiting_until: row.waiting_until?.toISOString() ?? null,
  }));
  const t = totals.rows[0]!;
  return {
    count: total,
    next: query.page * PAGE_SIZE < total ? pageUrl(query.page + 1) : null,
    previous: query.page > 1 ? pageUrl(query.page - 1) : null,
    results,
    totals: {
      broadcasts: t.broadcasts!,
      recipients: t.recipients!,
      sent: t.sent!,
      delivered: t.delivered!,
      read: t.read!,
      failed: t.failed!,
      limited: t.limited!,
      not_on_whatsapp: t.not_on_whatsapp!,
      scheduled: t.scheduled!,
      sending: t.sending!,
    },
  };
}
