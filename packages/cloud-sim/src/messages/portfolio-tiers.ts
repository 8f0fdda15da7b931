/**
 * A business portfolio's messaging limit, as `whatsapp_business_manager_messaging_limit` and the
 * `business_capability_update` webhook name it: unique users reached outside a customer service window in a
 * moving 24 hours, shared by every number of the portfolio (Meta, since 2025-10-07).
 */
export const PORTFOLIO_TIERS = {
  TIER_250: 250,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
} as const;

export type PortfolioTier = keyof typeof PORTFOLIO_TIERS;

export const TIER_NAMES = Object.keys(PORTFOLIO_TIERS) as PortfolioTier[];

/** A newly created business portfolio's limit, as Meta's messaging-limits page gives it. */
export const DEFAULT_PORTFOLIO_TIER: PortfolioTier = 'TIER_250';

/** What the sandbox gave every portfolio before tiers were modelled: what a state file of that time means. */
export const UNRECORDED_PORTFOLIO_TIER: PortfolioTier = 'TIER_2K';

export function isPortfolioTier(value: unknown): value is PortfolioTier {
  return typeof value === 'string' && Object.hasOwn(PORTFOLIO_TIERS, value);
}

/** The limit as a number, null for unlimited (JSON has no infinity). */
export function tierLimit(tier: PortfolioTier): number | null {
  const limit = PORTFOLIO_TIERS[tier];
  return Number.isFinite(limit) ? limit : null;
}
