// What other features use of the pricing feature (decision 071: features meet only through index.ts).
export { MARKETS, MARKET_OF_PREFIX, marketOfNumber, marketOfPrefix, OTHER_MARKET } from './markets';
export {
  DEFAULT_RATE_CARD_FILE,
  loadRateCard,
  RATE_CATEGORIES,
  rateCategory,
  rateOn,
  type RateCard,
  type RateCategory,
} from './rate-card';
