import type { SandboxConfig } from './context';
import { invalidParameter } from './errors';
import { DEFAULT_PORTFOLIO_TIER, isPortfolioTier, TIER_NAMES } from './messages/portfolio-tiers';
import type { PortfolioTier } from './messages/portfolio-tiers';
import { LONGEST_TIMER_MS } from './webhooks/retry-policy';

/** Control-API names are snake_case like the rest of the wire; camelCase is accepted too. */
const KEYS = {
  reviewDelayMs: ['review_delay_ms', 'reviewDelayMs'],
  webhookUrl: ['webhook_url', 'webhookUrl'],
  webhookRetryBaseMs: ['webhook_retry_base_ms', 'webhookRetryBaseMs'],
  webhookRetryMaxWaitMs: ['webhook_retry_max_wait_ms', 'webhookRetryMaxWaitMs'],
  webhookRetryMaxAgeMs: ['webhook_retry_max_age_ms', 'webhookRetryMaxAgeMs'],
  webhookMaxAttempts: ['webhook_max_attempts', 'webhookMaxAttempts'],
  statusDelaysMs: ['status_delays_ms', 'statusDelaysMs'],
  deliveredRate: ['delivered_rate', 'deliveredRate'],
  readRate: ['read_rate', 'readRate'],
  duplicateRate: ['duplicate_rate', 'duplicateRate'],
  reorderRate: ['reorder_rate', 'reorderRate'],
  reorder: ['reorder'],
  webhookBatchSize: ['webhook_batch_size', 'webhookBatchSize'],
  webhookBatchWindowMs: ['webhook_batch_window_ms', 'webhookBatchWindowMs'],
  pairRateBurst: ['pair_rate_burst', 'pairRateBurst'],
  pairRateWindowMs: ['pair_rate_window_ms', 'pairRateWindowMs'],
  defaultMessagingLimit: ['default_messaging_limit', 'defaultMessagingLimit'],
  usMarketingRule: ['us_marketing_rule', 'usMarketingRule'],
  mmApiTermsAtSignup: ['mm_api_terms_at_signup', 'mmApiTermsAtSignup'],
} as const;

export const MESSAGING_DEFAULTS = {
  statusDelaysMs: { sent: 100, delivered: 300, read: 800 },
  deliveredRate: 1,
  readRate: 0.6,
  duplicateRate: 0,
  reorderRate: 0,
  webhookBatchSize: 100,
  webhookBatchWindowMs: 50,
  pairRateBurst: 1,
  pairRateWindowMs: 6000,
  defaultMessagingLimit: DEFAULT_PORTFOLIO_TIER as PortfolioTier,
  usMarketingRule: true,
  mmApiTermsAtSignup: true,
};

const MAX_BATCH_SIZE = 1000;

function pick(params: Record<string, unknown>, names: readonly string[]): unknown {
  const name = names.find((n) => params[n] !== undefined);
  return name === undefined ? undefined : params[name];
}

function toNumber(value: unknown): unknown {
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
}

function wholeNumber(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = toNumber(value);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw invalidParameter(
      max === Number.MAX_SAFE_INTEGER
        ? `${name} must be a whole number of at least ${min}`
        : `${name} must be a whole number from ${min} to ${max}`,
    );
  }
  return n;
}

/** null (or an empty value) lifts the cap: retries then end only with the max age. */
function maxAttempts(value: unknown): number | null {
  if (value === null || value === '' || value === 'null') return null;
  return wholeNumber(value, 'webhook_max_attempts', 1);
}

function share(value: unknown, name: string): number {
  const n = toNumber(value);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw invalidParameter(`${name} must be a number from 0 to 1`);
  }
  return n;
}

export function checkWebhookUrl(value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || !/^https?:\/\/\S+$/.test(value)) {
    throw invalidParameter('webhook_url must be an http(s) URL, or null to send no webhooks');
  }
  return value;
}

function statusDelays(
  value: unknown,
  current: SandboxConfig['statusDelaysMs'],
): SandboxConfig['statusDelaysMs'] {
  const decoded = typeof value === 'string' ? safeJson(value) : value;
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
    throw invalidParameter('status_delays_ms must be an object {sent?, delivered?, read?} of milliseconds');
  }
  const given = decoded as Record<string, unknown>;
  const next = { ...current };
  for (const key of ['sent', 'delivered', 'read'] as const) {
    if (given[key] !== undefined) next[key] = wholeNumber(given[key], `status_delays_ms.${key}`, 0);
  }
  return next;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function checkMessagingLimit(value: unknown, name = 'default_messaging_limit'): PortfolioTier {
  if (!isPortfolioTier(value)) throw invalidParameter(`${name} must be one of ${TIER_NAMES.join(', ')}`);
  return value;
}

export function checkFlag(value: unknown, name: string): boolean {
  if (value === true || value === 'true' || value === 'on') return true;
  if (value === false || value === 'false' || value === 'off') return false;
  throw invalidParameter(`${name} must be true or false`);
}

function reorderFlag(value: unknown): number {
  if (value === true || value === 'true') return 1;
  if (value === false || value === 'false') return 0;
  return share(value, 'reorder');
}

/** Checks every given setting before changing any, so a bad call changes nothing. */
export function updateConfig(config: SandboxConfig, params: Record<string, unknown>): void {
  const next = { ...config };
  const delay = pick(params, KEYS.reviewDelayMs);
  if (delay !== undefined) next.reviewDelayMs = wholeNumber(delay, 'review_delay_ms', 0);
  const url = pick(params, KEYS.webhookUrl);
  if (url !== undefined) next.webhookUrl = checkWebhookUrl(url);
  const base = pick(params, KEYS.webhookRetryBaseMs);
  if (base !== undefined) next.webhookRetryBaseMs = wholeNumber(base, 'webhook_retry_base_ms', 0);
  const maxWait = pick(params, KEYS.webhookRetryMaxWaitMs);
  if (maxWait !== undefined) {
    next.webhookRetryMaxWaitMs = wholeNumber(maxWait, 'webhook_retry_max_wait_ms', 0, LONGEST_TIMER_MS);
  }
  const maxAge = pick(params, KEYS.webhookRetryMaxAgeMs);
  if (maxAge !== undefined) next.webhookRetryMaxAgeMs = wholeNumber(maxAge, 'webhook_retry_max_age_ms', 0);
  const attempts = pick(params, KEYS.webhookMaxAttempts);
  if (attempts !== undefined) next.webhookMaxAttempts = maxAttempts(attempts);
  const delays = pick(params, KEYS.statusDelaysMs);
  if (delays !== undefined) next.statusDelaysMs = statusDelays(delays, config.statusDelaysMs);
  const shares = [
    ['deliveredRate', 'delivered_rate'],
    ['readRate', 'read_rate'],
    ['duplicateRate', 'duplicate_rate'],
    ['reorderRate', 'reorder_rate'],
  ] as const;
  for (const [key, name] of shares) {
    const value = pick(params, KEYS[key]);
    if (value !== undefined) next[key] = share(value, name);
  }
  const reorder = pick(params, KEYS.reorder);
  if (reorder !== undefined) next.reorderRate = reorderFlag(reorder);
  const batch = pick(params, KEYS.webhookBatchSize);
  if (batch !== undefined)
    next.webhookBatchSize = wholeNumber(batch, 'webhook_batch_size', 1, MAX_BATCH_SIZE);
  const windowMs = pick(params, KEYS.webhookBatchWindowMs);
  if (windowMs !== undefined) {
    next.webhookBatchWindowMs = wholeNumber(windowMs, 'webhook_batch_window_ms', 1, 60_000);
  }
  const burst = pick(params, KEYS.pairRateBurst);
  if (burst !== undefined) next.pairRateBurst = wholeNumber(burst, 'pair_rate_burst', 1);
  const pairWindow = pick(params, KEYS.pairRateWindowMs);
  if (pairWindow !== undefined) next.pairRateWindowMs = wholeNumber(pairWindow, 'pair_rate_window_ms', 0);
  const tier = pick(params, KEYS.defaultMessagingLimit);
  if (tier !== undefined) next.defaultMessagingLimit = checkMessagingLimit(tier);
  const usRule = pick(params, KEYS.usMarketingRule);
  if (usRule !== undefined) next.usMarketingRule = checkFlag(usRule, 'us_marketing_rule');
  const mmTerms = pick(params, KEYS.mmApiTermsAtSignup);
  if (mmTerms !== undefined) next.mmApiTermsAtSignup = checkFlag(mmTerms, 'mm_api_terms_at_signup');
  Object.assign(config, next);
}

export function configView(config: SandboxConfig) {
  return {
    review_delay_ms: config.reviewDelayMs,
    webhook_url: config.webhookUrl,
    webhook_retry_base_ms: config.webhookRetryBaseMs,
    webhook_retry_max_wait_ms: config.webhookRetryMaxWaitMs,
    webhook_retry_max_age_ms: config.webhookRetryMaxAgeMs,
    webhook_max_attempts: config.webhookMaxAttempts,
    status_delays_ms: { ...config.statusDelaysMs },
    delivered_rate: config.deliveredRate,
    read_rate: config.readRate,
    duplicate_rate: config.duplicateRate,
    reorder: config.reorderRate > 0,
    reorder_rate: config.reorderRate,
    webhook_batch_size: config.webhookBatchSize,
    webhook_batch_window_ms: config.webhookBatchWindowMs,
    pair_rate_burst: config.pairRateBurst,
    pair_rate_window_ms: config.pairRateWindowMs,
    default_messaging_limit: config.defaultMessagingLimit,
    us_marketing_rule: config.usMarketingRule,
    mm_api_terms_at_signup: config.mmApiTermsAtSignup,
  };
}
