import {
  BROADCAST_ACTIONS,
  type BroadcastAction,
  MAX_SCHEDULE_AHEAD_SECONDS,
  overLimitMessage,
  type BroadcastCreateRequest,
  type BroadcastEstimateRequest,
  type BroadcastListQuery,
  type BroadcastReportQuery,
  type BroadcastRow,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../accounts/accounts-repo';
import {
  audienceTags,
  estimateAudience,
  estimateBroadcast,
  findTemplate,
  sendingNumber,
} from './broadcast-estimate';
import { readBroadcastReport } from './broadcast-report';
import { LOCKED } from './message-settle';
import { BROADCASTS_HALTED_CHANNEL, resumeBlockedBy } from './template-pause';

export const BROADCASTS_DUE_CHANNEL = 'herald_broadcasts_due';
const PAGE_SIZE = 10;

const percent = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 1000) / 10 : 0);

/** Creating and listing broadcasts; sending is the engine's (broadcast-engine.ts). */
export class BroadcastsService {
  constructor(private readonly deps: { pool: Pool; now?: () => number }) {}

  async create(waba: OwnedWaba, request: BroadcastCreateRequest) {
    const { pool } = this.deps;
    const now = this.deps.now?.() ?? Date.now();
    const template = await findTemplate(pool, waba, request.template_id);
    if (template.status !== 'APPROVED') {
      throw HttpError.field(
        400,
        'template_id',
        `Template ${template.name} is ${template.status}: only approved templates can be sent`,
      );
    }
    const tagIds = await audienceTags(pool, waba, request.recipients);
    let scheduledAt = new Date(now);
    if (request.scheduled_time !== undefined) {
      const seconds = request.scheduled_time;
      if (seconds * 1000 <= now)
        throw HttpError.field(400, 'scheduled_time', 'The scheduled time must be in the future');
      if (seconds * 1000 > now + MAX_SCHEDULE_AHEAD_SECONDS * 1000) {
        throw HttpError.field(400, 'scheduled_time', 'The scheduled time must be within a year');
      }
      scheduledAt = new Date(seconds * 1000);
    }
    const phone = await sendingNumber(pool, waba, request.phone_number_id);
    // Leaving out +1 numbers applies to marketing templates only: Meta delivers the others (decision 026).
    const leaveOutUs = request.leave_out_us_numbers && template.category.toUpperCase() === 'MARKETING';
    const figures = await estimateAudience(pool, waba, {
      tagIds,
      percentage: request.recipients.percentage,
      category: template.category,
      leaveOutUs,
    });
    const { left } = figures.messaging_limit;
    if (!request.spread_over_limit && left !== null && figures.new_recipients > left) {
      throw HttpError.field(400, 'recipients', overLimitMessage(figures.new_recipients, left));
    }
    const estimate = figures.recipients;
    const { rows } = await pool.query<{ id: number }>(
      `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                               audience, scheduled_at, status, total_recipients)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9) returning id::int`,
      [
        waba.id,
        phone.id,
        template.id,
        template.name,
        template.language,
        request.name.trim(),
        JSON.stringify({
          type: request.recipients.type,
          tag_ids: tagIds,
          percentage: request.recipients.percentage,
          leave_out_us: leaveOutUs,
        }),
        scheduledAt,
        estimate,
      ],
    );
    // Wake the engine now rather than at its next poll: the first message should leave within a second.
    await pool.query(`select pg_notify('${BROADCASTS_DUE_CHANNEL}', $1)`, [String(rows[0]!.id)]);
    return {
      id: rows[0]!.id,
      status: request.scheduled_time === undefined ? 'sending' : 'scheduled',
      total_recipients: estimate,
    };
  }

  /** POST /broadcast/estimate/ (broadcast-estimate.ts). */
  estimate(waba: OwnedWaba, request: BroadcastEstimateRequest) {
    return estimateBroadcast(this.deps.pool, waba, request);
  }

  async list(waba: OwnedWaba, query: BroadcastListQuery, pageUrl: (page: number) => string) {
    const { pool } = this.deps;
    const search = query.search ? `%${query.search.replace(/[\\%_]/g, '\\$&')}%` : null;
    const order = query.sort === 'oldest' ? 'created_at asc, id asc' : 'created_at desc, id desc';
    const where = 'waba_account_id = $1 and ($2::text is null or name ilike $2 or template_name ilike $2)';
    const [count, rows, totals] = await Promise.all([
      pool.query<{ n: number }>(`select count(*)::int as n from broadcasts where ${where}`, [
        waba.id,
        search,
      ]),
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

  /** One broadcast's delivery report (broadcast-report.ts); 404 for another account's. */
  report(waba: OwnedWaba, id: number, query: BroadcastReportQuery, pageUrl: (page: number) => string) {
    return readBroadcastReport(this.deps.pool, waba, id, query, pageUrl);
  }

  /**
   * Pause, resume or cancel. Senders claim only from `sending` broadcasts, and a pause also stops the batch in
   * flight (NOTIFY to the send gate; decision 029); cancelling also drops the part of the audience not yet
   * written and ends every queued message `cancelled`. Messages already handed to Meta are not recalled (they
   * cannot be). A broadcast WhatsApp paused resumes only once its template is no longer PAUSED or DISABLED.
   */
  async act(waba: OwnedWaba, id: number, action: BroadcastAction) {
    const rule = BROADCAST_ACTIONS[action];
    const status = await withTransaction(this.deps.pool, async (client) => {
      const found = await client.query<{ status: string }>(
        'select status from broadcasts where id = $1 and waba_account_id = $2 for update',
        [id, waba.id],
      );
      const current = found.rows[0]?.status;
      if (current === undefined) throw HttpError.field(404, 'id', 'Broadcast not found');
      if (!(rule.from as readonly string[]).includes(current)) {
        throw HttpError.field(409, 'status', `A ${current} broadcast cannot be ${rule.done}`);
      }
      if (action === 'resume') {
        const blocked = await resumeBlockedBy(client, id);
        if (blocked) throw HttpError.field(409, 'status', blocked);
      }
      if (action === 'cancel') {
        await client.query('delete from broadcast_audiences where broadcast_id = $1', [id]);
        await client.query(
          // The broadcast row is locked above; its message rows are locked in id order (decision 022).
          `with x as (select id from broadcast_messages where broadcast_id = $1 and state = 'queued'),
           ${LOCKED}
           update broadcast_messages m set state = 'cancelled' from locked l where m.id = l.id and m.state = 'queued'`,
          [id],
        );
      }
      await client.query(
        `update broadcasts set status = $2, completed_at = case when $2 = 'cancelled' then now() end,
                status_reason = case when $2 = 'sending' then null else status_reason end
          where id = $1`,
        [id, rule.to],
      );
      if (action === 'pause') {
        await client.query('select pg_notify($1, $2)', [BROADCASTS_HALTED_CHANNEL, String(id)]);
      }
      return rule.to;
    });
    if (status === 'sending') {
      await this.deps.pool.query(`select pg_notify('${BROADCASTS_DUE_CHANNEL}', $1)`, [String(id)]);
    }
    return { id, status };
  }
}
