import {
  DASHBOARD_CARD_KEYS,
  DASHBOARD_CARDS,
  DASHBOARD_MAX_DAYS,
  type DashboardActivity,
  type DashboardCardKey,
  type DashboardDay,
  type DashboardQuery,
  type DashboardResponse,
  percentChange,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import { activeContacts } from './active-contacts';
import { dashboardClicks } from './dashboard-clicks';
import { dashboardExpired } from './dashboard-expired';
import { addDays, daysOf, type DayRange, ranges } from './dashboard-range';

/** The sums of dashboard_hours over some hours (decision 032). */
interface Sums {
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
  engaged: number;
  response_seconds: number;
}

const ZERO: Sums = { sent: 0, delivered: 0, read: 0, failed: 0, replied: 0, engaged: 0, response_seconds: 0 };
const SUMS_SQL = `coalesce(sum(sent), 0)::float8 as sent, coalesce(sum(delivered), 0)::float8 as delivered,
  coalesce(sum(read), 0)::float8 as read, coalesce(sum(failed), 0)::float8 as failed,
  coalesce(sum(replied), 0)::float8 as replied, coalesce(sum(engaged), 0)::float8 as engaged,
  coalesce(sum(response_seconds), 0)::float8 as response_seconds`;

/** A share in percent with one decimal; null when there is nothing to divide by. */
export const rate = (n: number, of: number) => (of === 0 ? null : Math.round((n / of) * 1000) / 10);
const avgSeconds = (s: Sums) => (s.replied === 0 ? null : Math.round(s.response_seconds / s.replied));

/** The eight cards' values from a period's sums (the definitions of DASHBOARD_CARDS). */
function cardValues(s: Sums, active: number): Record<DashboardCardKey, number | null> {
  return {
    total_messages: s.sent,
    delivery_rate: rate(s.delivered, s.sent),
    read_rate: rate(s.read, s.delivered),
    response_rate: rate(s.replied, s.delivered),
    avg_response_time: avgSeconds(s),
    failed_messages: s.failed,
    engagement_rate: rate(s.engaged, s.delivered),
    active_contacts: active,
  };
}

/** One local day's row of the charts and the CSV. */
function dayFigures(date: string, s: Sums): DashboardDay {
  return {
    date,
    sent: s.sent,
    delivered: s.delivered,
    read: s.read,
    failed: s.failed,
    replied: s.replied,
    engaged: s.engaged,
    engagement_rate: rate(s.engaged, s.delivered),
    response_rate: rate(s.replied, s.delivered),
    avg_response_seconds: avgSeconds(s),
  };
}

/** The UTC instant a local day starts in `tz`, computed by Postgres (its zone data, DST included). */
const START_SQL = `(($1::date)::timestamp at time zone $2)`;

export class DashboardService {
  constructor(private readonly pool: Pool) {}

  /**
   * The account's figures for a range of local days: sums of the hourly figures (no message row is read), the
   * previous period of the same length, the daily series, categories and recent activity.
   */
  async read(waba: OwnedWaba, query: DashboardQuery): Promise<DashboardResponse> {
    const { current, previous } = ranges(query);
    if (current.days > DASHBOARD_MAX_DAYS)
      throw HttpError.field(400, 'from', `must be at most ${DASHBOARD_MAX_DAYS} days before to`);
    const tz = query.tz;
    const [bounds] = (
      await this.pool.query<{ prev_start: Date; start: Date; end: Date }>(
        `select ${START_SQL} as prev_start,
                (($3::date)::timestamp at time zone $2) as start,
                (($4::date)::timestamp at time zone $2) as end`,
        [previous.from, tz, current.from, addDays(current.to, 1)],
      )
    ).rows;
    const { prev_start: prevStart, start, end } = bounds!;
    const [periods, days, categories, empty, activity, active, previousActive, clicks, expired] =
      await Promise.all([
        this.pool.query<Sums & { current: boolean }>(
          `select hour >= $3 as current, ${SUMS_SQL} from dashboard_hours
          where waba_account_id = $1 and hour >= $2 and hour < $4 group by 1`,
          [waba.id, prevStart, start, end],
        ),
        this.pool.query<Sums & { date: string }>(
          `select to_char((hour at time zone $4)::date, 'YYYY-MM-DD') as date, ${SUMS_SQL} from dashboard_hours
          where waba_account_id = $1 and hour >= $2 and hour < $3 group by 1`,
          [waba.id, start, end, tz],
        ),
        this.pool.query<{ category: string; sent: number }>(
          `select category, sum(sent)::int as sent from dashboard_hours
          where waba_account_id = $1 and hour >= $2 and hour < $3 group by 1 having sum(sent) > 0
          order by 2 desc, 1`,
          [waba.id, start, end],
        ),
        this.pool.query<{ empty: boolean }>(
          `select not exists (select 1 from dashboard_hours where waba_account_id = $1)
            and not exists (select 1 from inbound_messages where waba_account_id = $1) as empty`,
          [waba.id],
        ),
        recentActivity(this.pool, waba.id),
        activeContacts(this.pool, waba.id, start, end),
        activeContacts(this.pool, waba.id, prevStart, start),
        dashboardClicks(this.pool, waba.id, { prevStart, start, end, tz }),
        dashboardExpired(this.pool, waba.id, { prevStart, start, end }),
      ]);
    const sumsOf = (isCurrent: boolean) => periods.rows.find((r) => r.current === isCurrent) ?? ZERO;
    const now = cardValues(sumsOf(true), active);
    const before = cardValues(sumsOf(false), previousActive);
    const byDay = new Map(days.rows.map((r) => [r.date, r]));
    return {
      range: { ...rangeOut(current), tz, days: current.days },
      previous_range: rangeOut(previous),
      empty: empty.rows[0]!.empty,
      cards: DASHBOARD_CARD_KEYS.map((key) => ({
        key,
        title: DASHBOARD_CARDS[key].title,
        unit: DASHBOARD_CARDS[key].unit,
        definition: DASHBOARD_CARDS[key].definition,
        value: now[key],
        previous: before[key],
        change: percentChange(now[key], before[key]),
      })),
      days: daysOf(current).map((date) => ({
        ...dayFigures(date, byDay.get(date) ?? ZERO),
        clicked: clicks.byDay.get(date) ?? 0,
      })),
      categories: categories.rows,
      clicks: clicks.summary,
      expired,
      recent_activity: activity,
    };
  }
}

const rangeOut = (r: DayRange) => ({ from: r.from, to: r.to });

/** The latest broadcasts, imports and template status changes of the account, newest first, with their screens. */
async function recentActivity(pool: Pool, accountId: number): Promise<DashboardActivity[]> {
  const { rows } = await pool.query<{
    kind: 'broadcast' | 'import' | 'template';
    title: string;
    detail: string;
    at: Date;
    link: string;
  }>(
    `select * from (
       (select 'broadcast' as kind, name as title, initcap(status) as detail, created_at as at,
               '/broadcast/' || id as link
          from broadcasts where waba_account_id = $1 order by created_at desc, id desc limit 10)
       union all
       (select case when kind = 'import_finished' then 'import' else 'template' end, title,
               case when kind = 'import_finished' then detail else initcap(substr(kind, 10)) end, at,
               case when kind = 'import_finished' then '/customers' else '/templates/' || subject_id end
          from account_events
         where waba_account_id = $1 and (kind = 'import_finished' or kind like 'template\\_%')
         order by at desc, id desc limit 10)) a
     order by at desc limit 10`,
    [accountId],
  );
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
