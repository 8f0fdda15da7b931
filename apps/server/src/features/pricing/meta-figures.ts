import type { MetaBroadcastFigure } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { GraphApiError, type GraphClient, type GraphPricingAnalytics } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import type { SecretBox } from '../../security/secret-box';
import type { OwnedWaba } from '../../owned-waba';

export interface MetaFiguresDependencies {
  pool: Pool;
  graph: GraphClient;
  secrets: SecretBox;
}

const HALF_HOUR = 1800;
const DAY = 86_400;
/** Longer ranges are asked by day: half-hour points over months would be thousands of them. */
const HALF_HOURS_UP_TO = 30 * DAY;

interface BroadcastRange {
  status: string;
  waba_phone_id: number;
  display_phone_number: string;
  first_send: Date | null;
  last_status: Date | null;
  delivered_billable: number;
}

/** [start, end) widened to whole buckets, in Unix seconds: Meta's points cover whole buckets. */
export function analyticsRange(firstSend: Date, end: Date) {
  const from = Math.floor(firstSend.getTime() / 1000);
  const to = Math.max(from + 1, Math.ceil(end.getTime() / 1000));
  const granularity = to - from <= HALF_HOURS_UP_TO ? ('HALF_HOUR' as const) : ('DAILY' as const);
  const step = granularity === 'HALF_HOUR' ? HALF_HOUR : DAY;
  return { start: Math.floor(from / step) * step, end: Math.ceil(to / step) * step, granularity };
}

/** Meta's points summed: volume, and cost unless Meta gave none (it omits it for partner-billed businesses). */
export function sumPoints(answer: GraphPricingAnalytics): { volume: number; cost: number | null } {
  let volume = 0;
  let cost = 0;
  let costed = false;
  for (const block of answer.pricing_analytics?.data ?? []) {
    for (const point of block.data_points ?? []) {
      volume += Number(point.volume ?? 0);
      if (point.cost !== undefined) {
        cost += Number(point.cost);
        costed = true;
      }
    }
  }
  return { volume, cost: costed || volume === 0 ? Math.round(cost * 1e6) / 1e6 : null };
}

function metaFailure(error: unknown): HttpError {
  if (!(error instanceof GraphApiError)) throw error;
  if (error.httpStatus === 0 || error.httpStatus >= 500) {
    return new HttpError(502, `Meta's pricing analytics could not be read now: ${error.message}`);
  }
  return new HttpError(502, `Meta refused the pricing analytics request: ${error.message}`);
}

/**
 * Meta's own figure for one broadcast (decision 053): its pricing_analytics for the broadcast's
 * sending number from the first send to the last status (now, while it is sending), billable (REGULAR) messages
 * only, with what Herald's own rows say about the same number and range so the page can tell why they differ.
 */
export class MetaFiguresService {
  constructor(private readonly deps: MetaFiguresDependencies) {}

  async broadcastFigure(waba: OwnedWaba, broadcastId: number): Promise<MetaBroadcastFigure> {
    // One pass over the broadcast's messages: its range, and its billable messages delivered (all of them fall in
    // the range, which runs from its first send to its last status).
    const { rows } = await this.deps.pool.query<BroadcastRange>(
      `select b.status, p.id::int as waba_phone_id, p.display_phone_number,
              own.first_send, own.last_status, own.delivered_billable
         from broadcasts b
         join phone_numbers p on p.id = b.phone_number_id
         cross join lateral (
           select min(m.accepted_at) as first_send,
                  max(greatest(m.delivered_at, m.read_at, m.failed_at, m.priced_at)) as last_status,
                  count(*) filter (where m.pricing_billable
                                     and coalesce(m.delivered_at, m.read_at) is not null)::int as delivered_billable
             from broadcast_messages m
            where m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id) own
        where b.waba_account_id = $1 and b.id = $2`,
      [waba.id, broadcastId],
    );
    const broadcast = rows[0];
    if (!broadcast) throw HttpError.field(404, 'id', 'No such broadcast in this account');
    const stillSending = broadcast.status === 'sending' || broadcast.status === 'scheduled';
    if (!broadcast.first_send) {
      // Nothing sent, no range: Meta has nothing of this broadcast, and is not asked.
      return {
        broadcast_id: broadcastId,
        currency: null,
        volume: null,
        cost: null,
        range: null,
        still_sending: stillSending,
        delivered_billable: 0,
        overlapping: { broadcasts: 0, messages: 0 },
      };
    }
    const end = stillSending || !broadcast.last_status ? new Date() : broadcast.last_status;
    const range = analyticsRange(broadcast.first_send, end);
    const digits = broadcast.display_phone_number.replace(/\D/g, '');
    const filters =
      `.start(${range.start}).end(${range.end}).granularity(${range.granularity})` +
      `.phone_numbers(["${digits}"]).metric_types(["COST","VOLUME"]).pricing_types(["REGULAR"])`;
    const token = this.deps.secrets.open(waba.businessTokenEncrypted);
    // Meta's answer and Herald's own rows are read at the same time.
    const [answer, overlapping] = await Promise.all([
      this.deps.graph.getPricingAnalytics(token, waba.wabaId, filters).catch((error: unknown) => {
        throw metaFailure(error);
      }),
      this.overlapping(broadcastId, broadcast.waba_phone_id, range),
    ]);
    return {
      broadcast_id: broadcastId,
      currency: answer.currency ?? null,
      ...sumPoints(answer),
      range: {
        start: new Date(range.start * 1000).toISOString(),
        end: new Date(range.end * 1000).toISOString(),
        granularity: range.granularity,
      },
      still_sending: stillSending,
      delivered_billable: broadcast.delivered_billable,
      overlapping,
    };
  }

  /**
   * Messages of the number's other broadcasts Herald saw delivered in the range: Meta counts them too. Only
   * broadcasts started before the range ends and completed no more than a day before it starts are read (a
   * message delivered later than a day after its broadcast completed is missed): there is no index by delivery
   * time, and a month of a busy number's broadcasts would be tens of millions of rows.
   */
  private async overlapping(broadcastId: number, phoneId: number, range: { start: number; end: number }) {
    const { rows } = await this.deps.pool.query<{ broadcasts: number; messages: number }>(
      `select count(distinct m.broadcast_id)::int as broadcasts, count(*)::int as messages
         from broadcasts b
         join broadcast_messages m on m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
        where b.phone_number_id = $2
          and b.id <> $1
          and b.started_at < to_timestamp($4)
          and coalesce(b.completed_at, now()) >= to_timestamp($3) - interval '1 day'
          and coalesce(m.delivered_at, m.read_at) >= to_timestamp($3)
          and coalesce(m.delivered_at, m.read_at) < to_timestamp($4)`,
      [broadcastId, phoneId, range.start, range.end],
    );
    return rows[0] ?? { broadcasts: 0, messages: 0 };
  }
}
