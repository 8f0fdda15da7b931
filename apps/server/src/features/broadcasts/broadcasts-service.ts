import {
  BROADCAST_ACTIONS,
  type BroadcastAction,
  type BroadcastActionBody,
  LINK_MESSAGES,
  MAX_SCHEDULE_AHEAD_SECONDS,
  trackedButtonIndex,
  overLimitMessage,
  type BroadcastCreateRequest,
  type BroadcastEstimateRequest,
  type BroadcastListQuery,
  type BroadcastReportQuery,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { withTransaction } from '../../db/transaction';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import {
  categoryAt,
  estimateAudience,
  estimateBroadcast,
  findSendableTemplate,
  requestAudience,
  sendingNumber,
} from './audience/broadcast-estimate';
import { historyCsv, reportCsv } from './report/broadcast-export';
import { listBroadcasts } from './report/broadcast-list';
import { readBroadcastReport } from './report/broadcast-report';
import { cancelFollowUps, followUpTemplate, insertFollowUp } from './follow-ups';
import { cancelQueued } from './message-rows';
import { applyResumeSpendCap } from './cost/spend-cap-resume';
import { BROADCASTS_HALTED_CHANNEL, resumeBlockedBy } from './sending/template-pause';

export const BROADCASTS_DUE_CHANNEL = 'herald_broadcasts_due';

/** Creating and listing broadcasts; sending is the engine's (broadcast-engine.ts). */
export class BroadcastsService {
  constructor(
    private readonly deps: {
      pool: Pool;
      now?: () => number;
      /**
       * Why the account may send nothing now (WhatsApp banned or restricted it), or null: the account-health
       * feature's answer, given by the app (that feature pauses broadcasts through this one).
       */
      sendingStop?: (accountId: number) => Promise<string | null>;
      /** What a template's URL button starts with to be a tracked link (trackedLinkPrefix of PUBLIC_URL). */
      trackedLinkPrefix?: string;
    },
  ) {}

  async create(waba: OwnedWaba, request: BroadcastCreateRequest) {
    const { pool } = this.deps;
    const now = this.deps.now?.() ?? Date.now();
    const stop = await this.deps.sendingStop?.(waba.id);
    if (stop) throw HttpError.field(409, 'waba', stop);
    const template = await findSendableTemplate(pool, waba, request.template_id, 'template_id');
    const linkButton = this.deps.trackedLinkPrefix
      ? trackedButtonIndex(template.components ?? [], this.deps.trackedLinkPrefix)
      : null;
    if (linkButton !== null && !request.link_destination)
      throw HttpError.field(400, 'link_destination', LINK_MESSAGES.destinationRequired);
    if (linkButton === null && request.link_destination)
      throw HttpError.field(400, 'link_destination', LINK_MESSAGES.destinationUnused);
    // A retarget list is resolved (frozen) here, at creation; tags are sampled when the broadcast starts.
    const { source, percentage, segment } = await requestAudience(pool, waba, request);
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
    // Leaving out +1 numbers applies to marketing templates only: Meta delivers the others (decision 026). The
    // category is the one that will apply when it starts (a change Meta announced), as in the estimate.
    const category = categoryAt(template, scheduledAt);
    const leaveOutUs = request.leave_out_us_numbers && category.toUpperCase() === 'MARKETING';
    const figures = await estimateAudience(pool, waba, { source, percentage, category, leaveOutUs });
    const { left } = figures.messaging_limit;
    if (!request.spread_over_limit && left !== null && figures.new_recipients > left) {
      throw HttpError.field(400, 'recipients', overLimitMessage(figures.new_recipients, left));
    }
    const estimate = figures.recipients;
    const followUp = request.follow_up;
    const followUpTemplateRow = followUp
      ? await followUpTemplate(pool, waba, followUp, linkButton !== null, this.deps.trackedLinkPrefix)
      : null;
    const id = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: number }>(
        `insert into broadcasts (waba_account_id, phone_number_id, template_id, template_name, template_language, name,
                               audience, scheduled_at, status, total_recipients, spend_cap, link_destination,
                               link_button_index, message_ttl_seconds)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'scheduled', $9, $10, $11, $12, $13) returning id::int`,
        [
          waba.id,
          phone.id,
          template.id,
          template.name,
          template.language,
          request.name.trim(),
          JSON.stringify(
            source.kind === 'list'
              ? {
                  // 'list': the report describes it as a list from an earlier broadcast (decision 037).
                  type: 'list',
                  from_broadcast_id: request.audience!.broadcast_id,
                  filter: request.audience!.filter,
                  contact_ids: source.contactIds,
                  percentage,
                  leave_out_us: leaveOutUs,
                }
              : segment
                ? {
                    // Its rules as they are now, kept: the report says them and the start applies them.
                    type: 'segment',
                    segment_id: segment.id,
                    segment_name: segment.name,
                    definition: segment.definition,
                    rules: segment.rules,
                    percentage,
                    leave_out_us: leaveOutUs,
                  }
                : {
                    type: request.recipients!.type,
                    tag_ids: source.kind === 'tags' ? source.tagIds : null,
                    percentage,
                    leave_out_us: leaveOutUs,
                  },
          ),
          scheduledAt,
          estimate,
          request.spend_cap ?? null,
          linkButton === null ? null : request.link_destination,
          linkButton,
          // The time-to-live its messages get, as the template has it now: how an expiry is told (decision 093).
          template.category.toUpperCase() === 'MARKETING' ? template.message_send_ttl_seconds : null,
        ],
      );
      if (followUp && followUpTemplateRow) {
        await insertFollowUp(client, {
          accountId: waba.id,
          phoneId: phone.id,
          parentId: rows[0]!.id,
          parentName: request.name.trim(),
          parentStart: scheduledAt,
          parentEstimate: estimate,
          template: followUpTemplateRow,
          followUp,
          leaveOutUs:
            request.leave_out_us_numbers && followUpTemplateRow.category.toUpperCase() === 'MARKETING',
        });
      }
      return rows[0]!.id;
    });
    // Wake the engine now rather than at its next poll: the first message should leave within a second.
    await pool.query(`select pg_notify('${BROADCASTS_DUE_CHANNEL}', $1)`, [String(id)]);
    return {
      id,
      status: request.scheduled_time === undefined ? 'sending' : 'scheduled',
      total_recipients: estimate,
    };
  }

  /** POST /broadcast/estimate/ (broadcast-estimate.ts). */
  estimate(waba: OwnedWaba, request: BroadcastEstimateRequest) {
    return estimateBroadcast(this.deps.pool, waba, request);
  }

  /** GET /broadcast/ (broadcast-list.ts). */
  list(waba: OwnedWaba, query: BroadcastListQuery, pageUrl: (page: number) => string) {
    return listBroadcasts(this.deps.pool, waba, query, pageUrl);
  }

  /** One broadcast's delivery report (broadcast-report.ts); 404 for another account's. */
  report(waba: OwnedWaba, id: number, query: BroadcastReportQuery, pageUrl: (page: number) => string) {
    return readBroadcastReport(this.deps.pool, waba, id, query, pageUrl);
  }

  /** GET /broadcast/export.csv: the history's list as CSV (broadcast-export.ts). */
  exportHistory(waba: OwnedWaba, query: Omit<BroadcastListQuery, 'page'>) {
    return historyCsv(this.deps.pool, waba, query);
  }

  /** GET /broadcast/{id}/recipients/export.csv: the report's recipients as CSV, streamed (broadcast-export.ts). */
  exportReport(waba: OwnedWaba, id: number, query: Omit<BroadcastReportQuery, 'page'>) {
    return reportCsv(this.deps.pool, waba, id, query);
  }

  /**
   * Pause, resume or cancel. Senders claim only from `sending` broadcasts, and a pause also stops the batch in
   * flight (NOTIFY to the send gate; decision 029); cancelling also drops the part of the audience not yet
   * written and ends every queued message `cancelled`. Messages already handed to Meta are not recalled (they
   * cannot be). A broadcast WhatsApp paused resumes only once its template is no longer PAUSED or DISABLED; one
   * its spend cap paused, only with a cap that lets its next message go, or none (spend-cap-resume.ts).
   */
  async act(waba: OwnedWaba, id: number, action: BroadcastAction, body?: BroadcastActionBody) {
    const rule = BROADCAST_ACTIONS[action];
    const status = await withTransaction(this.deps.pool, async (client) => {
      const found = await client.query<{ status: string }>(
        'select status from broadcasts where id = $1 and waba_account_id = $2 for no key update',
        [id, waba.id],
      );
      const current = found.rows[0]?.status;
      if (current === undefined) throw HttpError.field(404, 'id', 'Broadcast not found');
      if (!(rule.from as readonly string[]).includes(current)) {
        throw HttpError.field(409, 'status', `A ${current} broadcast cannot be ${rule.done}`);
      }
      if (action === 'resume') {
        const stop = await this.deps.sendingStop?.(waba.id);
        if (stop) throw HttpError.field(409, 'status', stop);
        const blocked = await resumeBlockedBy(client, id);
        if (blocked) throw HttpError.field(409, 'status', blocked);
        await applyResumeSpendCap(client, id, body);
      }
      if (action === 'cancel') {
        await client.query('delete from broadcast_audiences where broadcast_id = $1', [id]);
        // The broadcast row is locked above; cancelQueued locks its message rows in id order (decision 022).
        await cancelQueued(client, id, waba.id);
        await cancelFollowUps(client, waba.id, id);
      }
      // A broadcast held before it started (a category change) resumes to its schedule: the audience is written
      // when it starts (at once if its time has passed).
      const { rows: updated } = await client.query<{ status: string }>(
        `update broadcasts set status = case when $2 = 'sending' and started_at is null then 'scheduled' else $2 end,
                completed_at = case when $2 = 'cancelled' then now() end,
                status_reason = case when $2 = 'sending' then null else status_reason end,
                -- A resumed broadcast says "not answering" again only once a batch finds that again.
                unanswered_since = case when $2 = 'sending' then null else unanswered_since end
          where id = $1
          returning status`,
        [id, rule.to],
      );
      if (action === 'pause') {
        await client.query('select pg_notify($1, $2)', [BROADCASTS_HALTED_CHANNEL, String(id)]);
      }
      return updated[0]!.status;
    });
    if (status === 'sending' || status === 'scheduled') {
      await this.deps.pool.query(`select pg_notify('${BROADCASTS_DUE_CHANNEL}', $1)`, [String(id)]);
    }
    return { id, status };
  }
}
