import type { SandboxConfig } from './context';
import { invalidParameter } from './errors';

/** Control-API names are snake_case like the rest of the wire; camelCase is accepted too. */
const KEYS = {
  reviewDelayMs: ['review_delay_ms', 'reviewDelayMs'],
  webhookUrl: ['webhook_url', 'webhookUrl'],
  webhookRetryBaseMs: ['webhook_retry_base_ms', 'webhookRetryBaseMs'],
  webhookMaxAttempts: ['webhook_max_attempts', 'webhookMaxAttempts'],
} as const;

function pick(params: Record<string, unknown>, names: readonly string[]): unknown {
  const name = names.find((n) => params[n] !== undefined);
  return name === undefined ? undefined : params[name];
}

function wholeNumber(value: unknown, name: string, min: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
    throw invalidParameter(`${name} must be a whole number of at least ${min}`);
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

/** Checks every given setting before changing any, so a bad call changes nothing. */
export function updateConfig(config: SandboxConfig, params: Record<string, unknown>): void {
  const next = { ...config };
  const delay = pick(params, KEYS.reviewDelayMs);
  if (delay !== undefined) next.reviewDelayMs = wholeNumber(delay, 'review_delay_ms', 0);
  const url = pick(params, KEYS.webhookUrl);
  if (url !== undefined) next.webhookUrl = checkWebhookUrl(url);
  const base = pick(params, KEYS.webhookRetryBaseMs);
  if (base !== undefined) next.webhookRetryBaseMs = wholeNumber(base, 'webhook_retry_base_ms', 0);
  const attempts = pick(params, KEYS.webhookMaxAttempts);
  if (attempts !== undefined) next.webhookMaxAttempts = wholeNumber(attempts, 'webhook_max_attempts', 1);
  Object.assign(config, next);
}

export function configView(config: SandboxConfig) {
  return {
    review_delay_ms: config.reviewDelayMs,
    webhook_url: config.webhookUrl,
    webhook_retry_base_ms: config.webhookRetryBaseMs,
    webhook_max_attempts: config.webhookMaxAttempts,
  };
}
