import {
  maxPriceDollars,
  sampleSize,
  type BroadcastCost,
  type BroadcastEstimateRequest,
  type CostEstimateResponse,
  type MarketCost,
} from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import {
  audienceByPrefix,
  NUMBER_PREFIX,
  findTemplate,
  requestAudience,
  sendingNumber,
} from '../broadcasts/index';
import { marketOfNumber } from './markets';
import { cardDateOn, rateCategory, rateOn, type RateCard } from './rate-card';

const money = (value: number) => Math.round(value * 1e6) / 1e6;
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Adds `messages` to a market's line, costing `rate` each, or `stated` in all when Meta stated what it charged
 * (an auction's charges differ: no single rate). A market priced at two rates shows no single rate.
 */
function addTo(
  lines: Map<string, MarketCost>,
  market: string,
  messages: number,
  price: { rate: number } | { stated: number },
) {
  const rate = 'rate' in price ? price.rate : null;
  const line = lines.get(market) ?? { market, messages: 0, rate, cost: 0 };
  if (line.rate !== rate) line.rate = null;
  line.messages += messages;
  line.cost += 'rate' in price ? messages * price.rate : price.stated;
  lines.set(market, line);
}

function sortedLines(lines: Map<string, MarketCost>): MarketCost[] {
  return [...lines.values()]
    .map((line) => ({ ...line, cost: money(line.cost) }))
    .sort((a, b) => b.cost - a.cost || b.messages - a.messages || a.market.localeCompare(b.market));
}

export class PricingService {
  constructor(
    private readonly pool: Pool,
    private readonly card: RateCard,
  ) {}

  /**
   * POST /pricing/estimate/: the audience New broadcast would send to (the rules create uses), by market, each
   * × today's rate for the template's category. Below 100 % each market's share is scaled as the recipients are.
   */
  async estimate(waba: OwnedWaba, request: BroadcastEstimateRequest): Promise<CostEstimateResponse> {
    // The same checks as POST /broadcast/estimate/: another account's number is not this account's to price.
    if (request.phone_number_id !== undefined) await sendingNumber(this.pool, waba, request.phone_number_id);
    const template =
      request.template_id === undefined ? null : await findTemplate(this.pool, waba, request.template_id);
    const { source, percentage } = await requestAudience(this.pool, waba, request);
    const marketing = template?.category.toUpperCase() === 'MARKETING';
    // A few hundred groups by prefix, one number of each read by libphonenumber-js for its market.
    const rows = await audienceByPrefix(
      this.pool,
      waba.id,
      source,
      marketing && request.leave_out_us_numbers,
    );
    const byMarket = new Map<string, number>();
    let total = 0;
    for (const row of rows) {
      const market = marketOfNumber(row.sample);
      byMarket.set(market, (byMarket.get(market) ?? 0) + row.n);
      total += row.n;
    }
    const day = today();
    const category = template ? rateCategory(template.category) : null;
    // Meta charges a max price or less for every delivery, whatever the market.
    const maxPrice =
      marketing && template?.max_price_bid_amount ? maxPriceDollars(template.max_price_bid_amount) : null;
    const lines = new Map<string, MarketCost>();
    for (const [market, n] of byMarket) {
      const messages = sampleSize(n, percentage);
      if (category)
        addTo(lines, market, messages, { rate: maxPrice ?? rateOn(this.card, market, category, day) ?? 0 });
      else lines.set(market, { market, messages, rate: null, cost: 0 });
    }
    const markets = sortedLines(lines);
    return {
      currency: 'USD',
      category,
      recipients: sampleSize(total, percentage),
      total: category ? money(markets.reduce((sum, line) => sum + line.cost, 0)) : null,
      markets,
      rate_card: { source: this.card.source, effective_from: cardDateOn(this.card, day) },
      max_price: maxPrice,
    };
  }

  /**
   * GET /pricing/broadcasts/: each broadcast's cost from the pricing its status webhooks stated (decision 048):
   * billable messages × the rate of their market, category and the day they were priced; free ones counted apart.
   * Only the caller's broadcasts are answered.
   */
  async broadcastCosts(waba: OwnedWaba, ids: number[]): Promise<BroadcastCost[]> {
    const { rows } = await this.pool.query<{
      broadcast_id: number;
      sample: string;
      category: string | null;
      day: string | null;
      billable: number;
      free: number;
      unpriced: number;
      stated_messages: number;
      stated_cost: number;
    }>(
      `select m.broadcast_id::int, min(m.whatsapp_number collate "C") as sample, m.pricing_category as category,
              to_char(m.priced_at at time zone 'UTC', 'YYYY-MM-DD') as day,
              count(*) filter (where m.pricing_billable)::int as billable,
              count(*) filter (where m.pricing_billable and m.pricing_cost is not null)::int as stated_messages,
              coalesce(sum(m.pricing_cost) filter (where m.pricing_billable), 0)::float8 as stated_cost,
              count(*) filter (where not m.pricing_billable)::int as free,
              count(*) filter (where m.pricing_billable is null
                                and m.state in ('sent', 'delivered', 'read'))::int as unpriced
         from broadcast_messages m
         join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
        where b.waba_account_id = $1 and b.id = any($2::bigint[])
        group by m.broadcast_id, ${NUMBER_PREFIX('m.whatsapp_number')}, m.pricing_category, 4`,
      [waba.id, ids],
    );
    const costs = new Map<number, BroadcastCost & { lines: Map<string, MarketCost> }>();
    const found = await this.pool.query<{ id: number; name: string }>(
      'select id::int, name from broadcasts where waba_account_id = $1 and id = any($2::bigint[]) order by id',
      [waba.id, ids],
    );
    // Like every id a request names: one that is not this account's is not found (never an empty answer).
    if (found.rows.length < new Set(ids).size) {
      throw HttpError.field(404, 'ids', 'No such broadcast in this account');
    }
    for (const { id, name } of found.rows) {
      costs.set(id, {
        broadcast_id: id,
        name,
        currency: 'USD',
        billable: 0,
        free: 0,
        unpriced: 0,
        cost: 0,
        markets: [],
        lines: new Map(),
      });
    }
    for (const row of rows) {
      const cost = costs.get(row.broadcast_id)!;
      cost.billable += row.billable;
      cost.free += row.free;
      cost.unpriced += row.unpriced;
      const market = marketOfNumber(row.sample);
      // What Meta said it charged (a max-price message) counts as said; the rest at the card's rate.
      if (row.stated_messages > 0)
        addTo(cost.lines, market, row.stated_messages, { stated: row.stated_cost });
      const category = row.category ? rateCategory(row.category) : null;
      const unstated = row.billable - row.stated_messages;
      if (unstated === 0 || !category || !row.day) continue;
      const rate = rateOn(this.card, market, category, row.day);
      // A category or day the card does not price is left out of the cost rather than guessed.
      if (rate !== null) addTo(cost.lines, market, unstated, { rate });
    }
    return [...costs.values()].map(({ lines, ...cost }) => {
      const markets = sortedLines(lines);
      return { ...cost, markets, cost: money(markets.reduce((sum, line) => sum + line.cost, 0)) };
    });
  }
}
