import {
  BROADCAST_REPORT_PAGE_SIZE,
  type BroadcastReport,
  EXPIRED_REASON,
  failureReason,
  HERALD_FAILURE_REASONS,
  type BroadcastReportQuery,
  RECIPIENT_OUTCOME_NAMES,
  recipientOutcome,
  retargetStates,
  type RecipientOutcome,
  type InboundKind,
  replyRate,
  clickRate,
} from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import type { OwnedWaba } from '../../../owned-waba';
import { findReportedBroadcast } from './report-broadcast';

/**
 * The delivery report of one broadcast of the account: how many recipients reached each outcome, and one
 * page of recipients (by number, the order of the broadcast's unique index), optionally of one outcome.
 */
export async function readBroadcastReport(
  pool: Pool,
  waba: OwnedWaba,
  id: number,
  query: BroadcastReportQuery,
  pageUrl: (page: number) => string,
): Promise<BroadcastReport> {
  const broadcast = await findReportedBroadcast(pool, waba, id);

  // One outcome's states, or not_read's (sent or delivered): the same rule the export and retargeting use.
  const states = retargetStates(query.outcome);
  const offset = (query.page - 1) * BROADCAST_REPORT_PAGE_SIZE;
  const replied = query.replied ?? null;
  const clicked = query.clicked ?? null;
  const [byState, page, failures] = await Promise.all([
    // Plus what the retention removed (decision 041): the figures stay, the rows to list are gone (and with
    // them who clicked: a removed recipient counts as not clicked).
    pool.query<{
      state: string;
      n: number;
      replied: number;
      clicked: number;
      replied_clicked: number;
      removed: boolean;
    }>(
      `select state, count(*)::int as n, count(reply_id)::int as replied, count(clicked_at)::int as clicked,
              count(*) filter (where reply_id is not null and clicked_at is not null)::int as replied_clicked,
              false as removed
         from broadcast_messages where waba_account_id = $2 and broadcast_id = $1 group by state
       union all
       select state, recipients, replied, 0, 0, true from broadcast_removed_outcomes
        where waba_account_id = $2 and broadcast_id = $1`,
      [id, waba.id],
    ),
    pool.query<{
      id: number;
      contact_name: string | null;
      whatsapp_number: string;
      state: string;
      error_code: number | null;
      error_title: string | null;
      updated_at: Date | null;
      reply_kind: InboundKind | null;
      reply_body: string | null;
      reply_at: Date | null;
      clicked_at: Date | null;
    }>(
      `select m.id::int, c.name as contact_name, m.whatsapp_number, m.state, m.error_code, m.error_title,
              greatest(m.accepted_at, m.delivered_at, m.read_at, m.failed_at, m.unknown_at) as updated_at,
              r.kind as reply_kind, r.body as reply_body, r.sent_at as reply_at, m.clicked_at
         from broadcast_messages m
         left join contacts c on c.waba_account_id = m.waba_account_id and c.id = m.contact_id
         left join inbound_messages r on r.waba_account_id = m.waba_account_id and r.id = m.reply_id
        where m.waba_account_id = $6 and m.broadcast_id = $1 and ($2::text[] is null or m.state = any($2::text[]))
          and ($5::bool is null or (m.reply_id is not null) = $5)
          and ($7::bool is null or (m.clicked_at is not null) = $7)
        order by m.whatsapp_number limit $3 offset $4`,
      [id, states, BROADCAST_REPORT_PAGE_SIZE, offset, replied, waba.id, clicked],
    ),
    // Meta's title can vary for one code (a retry's "Gave up after…"): one group per code, its commonest title.
    pool.query<{ state: string; code: number | null; title: string | null; n: number }>(
      `select state, error_code as code,
              case when error_code is null then min(error_title) else mode() within group (order by error_title) end as title,
              count(*)::int as n
         from broadcast_messages
        where waba_account_id = $2 and broadcast_id = $1 and state in ('failed', 'limited', 'not_on_whatsapp', 'expired', 'unknown')
        group by state, error_code, case when error_code is null then error_title end`,
      [id, waba.id],
    ),
  ]);

  const outcomes = Object.fromEntries(RECIPIENT_OUTCOME_NAMES.map((name) => [name, 0])) as Record<
    RecipientOutcome,
    number
  >;
  let repliedCount = 0;
  // The reply rate's numerator is a part of its denominator: replies to messages delivered (or read) only. A
  // reply to a message still 'sent', or one that failed, counts in `replied` but not in the rate (decision 078).
  let repliedDelivered = 0;
  let clickedCount = 0;
  for (const row of byState.rows) {
    const outcome = recipientOutcome(row.state);
    outcomes[outcome] += row.n;
    repliedCount += row.replied;
    clickedCount += row.clicked;
    if (outcome === 'delivered' || outcome === 'read') repliedDelivered += row.replied;
  }
  // The page's count under all filters, from the same per-state counts (no second scan of the messages).
  const count = byState.rows
    .filter((row) => !row.removed && (states === null || states.includes(row.state)))
    .reduce((sum, row) => sum + filteredCount(row, replied, clicked), 0);
  const deliveredOrRead = outcomes.delivered + outcomes.read;
  return {
    broadcast,
    outcomes,
    replied: repliedCount,
    reply_rate: replyRate(repliedDelivered, deliveredOrRead),
    clicked: clickedCount,
    click_rate: broadcast.link_destination === null ? null : clickRate(clickedCount, deliveredOrRead),
    failure_reasons: failureGroups(failures.rows),
    count,
    next: offset + BROADCAST_REPORT_PAGE_SIZE < count ? pageUrl(query.page + 1) : null,
    previous: query.page > 1 ? pageUrl(query.page - 1) : null,
    results: page.rows.map((row) => ({
      id: row.id,
      contact_name: row.contact_name,
      whatsapp_number: row.whatsapp_number,
      outcome: recipientOutcome(row.state),
      error_code: row.error_code,
      error_title: row.error_title,
      updated_at: row.updated_at?.toISOString() ?? null,
      reply:
        row.reply_kind && row.reply_at
          ? { text: row.reply_body, kind: row.reply_kind, at: row.reply_at.toISOString() }
          : null,
      clicked_at: row.clicked_at?.toISOString() ?? null,
    })),
  };
}

/** Rows of one state under the replied and clicked filters (null: either), by inclusion–exclusion. */
function filteredCount(
  row: { n: number; replied: number; clicked: number; replied_clicked: number },
  replied: boolean | null,
  clicked: boolean | null,
): number {
  const r = (yes: boolean) => (yes ? row.replied : row.n - row.replied);
  if (clicked === null) return replied === null ? row.n : r(replied);
  const c = clicked ? row.clicked : row.n - row.clicked;
  if (replied === null) return c;
  const both = row.replied_clicked;
  if (replied && clicked) return both;
  if (replied) return row.replied - both;
  if (clicked) return row.clicked - both;
  return row.n - row.replied - row.clicked + both;
}

/**
 * The report's failure groups, most frequent first (ties by code): each Meta code once, each of Herald's own
 * reasons by its title, in plain words from packages/contracts (failure-reasons.ts).
 */
function failureGroups(rows: Array<{ state: string; code: number | null; title: string | null; n: number }>) {
  return rows
    .map((row) => {
      const text = row.state === 'expired' ? EXPIRED_REASON : failureReason(row.code, row.title);
      // A missing value or a message Herald could not send keeps its own title: it names the field or the cause.
      const own =
        row.code === null &&
        row.title !== null &&
        (text === HERALD_FAILURE_REASONS.missingValue || text === HERALD_FAILURE_REASONS.notSent);
      return {
        code: row.code,
        outcome: recipientOutcome(row.state),
        title: own ? row.title! : text.title,
        count: row.n,
        explanation: text.explanation,
        action: text.action,
      };
    })
    .sort((a, b) => b.count - a.count || (a.code ?? 0) - (b.code ?? 0) || a.title.localeCompare(b.title));
}
