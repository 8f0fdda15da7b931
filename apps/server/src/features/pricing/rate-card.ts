import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../paths';
import { MARKETS, OTHER_MARKET } from './markets';

/** The categories a rate card prices, as the status webhooks' `pricing.category` names them. */
export const RATE_CATEGORIES = [
  'marketing',
  'utility',
  'authentication',
  'authentication_international',
  'service',
] as const;
export type RateCategory = (typeof RATE_CATEGORIES)[number];

/** One market's rates from one day on (UTC), in the card's currency; authentication_international may be absent. */
interface RateRow {
  market: string;
  effectiveFrom: string;
  rates: Partial<Record<RateCategory, number>>;
}

export interface RateCard {
  file: string;
  source: string;
  currency: string;
  rows: RateRow[];
}

export const DEFAULT_RATE_CARD_FILE = path.join(repoRoot, 'apps/server/src/features/pricing/rate-card.csv');

const HEADER = ['market', 'effective_from', ...RATE_CATEGORIES].join(',');
const RATE = /^\d{1,3}(\.\d{1,6})?$/;

/** A malformed card: one line naming the file and the row, the reason Herald does not start. */
export class RateCardError extends Error {}

/**
 * Reads and checks the rate card (decision 048): `# source:` and `# currency:` comment lines, the header, then
 * one row per market and effective date with a rate per category. Every market Meta lists must be priced from
 * the card's first date, so no recipient is ever left without a rate.
 */
export function loadRateCard(file: string = DEFAULT_RATE_CARD_FILE): RateCard {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RateCardError(`Rate card ${file}: cannot be read (${(error as Error).message})`);
  }
  const fail = (line: number, reason: string): never => {
    throw new RateCardError(`Rate card ${file}: row ${line}: ${reason}`);
  };
  let source = '';
  let currency = '';
  let header = false;
  const rows: RateRow[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '') return;
    if (content.startsWith('#')) {
      const meta = /^#\s*(source|currency):\s*(.+)$/.exec(content);
      if (meta?.[1] === 'source') source = meta[2]!.trim();
      if (meta?.[1] === 'currency') currency = meta[2]!.trim();
      return;
    }
    if (!header) {
      if (content !== HEADER) fail(line, `the header must be ${HEADER}`);
      header = true;
      return;
    }
    const cells = content.split(',').map((cell) => cell.trim());
    if (cells.length !== 2 + RATE_CATEGORIES.length) {
      fail(line, `expected ${2 + RATE_CATEGORIES.length} cells, found ${cells.length}`);
    }
    const [market, effectiveFrom, ...values] = cells as [string, string, ...string[]];
    if (!MARKETS.includes(market)) fail(line, `unknown market "${market}"`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(effectiveFrom) || Number.isNaN(Date.parse(effectiveFrom))) {
      fail(line, `effective_from "${effectiveFrom}" is not a date (YYYY-MM-DD)`);
    }
    if (seen.has(`${market}|${effectiveFrom}`)) fail(line, `${market} from ${effectiveFrom} appears twice`);
    seen.add(`${market}|${effectiveFrom}`);
    const rates: RateRow['rates'] = {};
    RATE_CATEGORIES.forEach((category, i) => {
      const value = values[i]!;
      if (value === '' && category === 'authentication_international') return;
      if (!RATE.test(value)) fail(line, `${category} "${value}" is not a rate (a number such as 0.0250)`);
      rates[category] = Number(value);
    });
    rows.push({ market, effectiveFrom, rates });
  });
  if (!header) fail(1, `no header (${HEADER})`);
  if (!source) fail(1, 'no "# source:" line');
  if (currency !== 'USD') fail(1, `"# currency:" must be USD, found "${currency || 'none'}"`);
  const first = rows.map((r) => r.effectiveFrom).sort()[0];
  const missing = MARKETS.filter((m) => !rows.some((r) => r.market === m && r.effectiveFrom === first));
  if (missing.length > 0) fail(1, `no rate from ${first} for ${missing.join(', ')}`);
  // Newest first, so the first row at or before a day is the one in effect that day.
  rows.sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom));
  return { file, source, currency, rows };
}

/** The category a stored `pricing.category` is charged as: marketing_lite at the marketing rate. */
export function rateCategory(category: string): RateCategory | null {
  const lower = category.toLowerCase();
  if (lower === 'marketing_lite') return 'marketing';
  return (RATE_CATEGORIES as readonly string[]).includes(lower) ? (lower as RateCategory) : null;
}

/**
 * The rate for a market and category on a day (YYYY-MM-DD, UTC): the newest row of that market in effect that
 * day; a market without authentication_international is charged its authentication rate. Null before the card.
 */
export function rateOn(card: RateCard, market: string, category: RateCategory, day: string): number | null {
  const known = MARKETS.includes(market) ? market : OTHER_MARKET;
  const row = card.rows.find((r) => r.market === known && r.effectiveFrom <= day);
  if (!row) return null;
  return (
    row.rates[category] ?? (category === 'authentication_international' ? row.rates.authentication! : null)
  );
}

/** The date of the newest row in effect on a day, across the card (what the estimate says it uses). */
export function cardDateOn(card: RateCard, day: string): string | null {
  return card.rows.find((r) => r.effectiveFrom <= day)?.effectiveFrom ?? null;
}
