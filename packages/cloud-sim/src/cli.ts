import { resolve } from 'node:path';
import { startSandbox } from './server';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8787;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port > 65535) {
    fail(`SANDBOX_PORT must be a port number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

function parseWholeNumber(name: string, min: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    fail(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function parseWebhookUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^https?:\/\/\S+$/.test(raw)) fail(`SANDBOX_WEBHOOK_URL must be an http(s) URL, got "${raw}"`);
  return raw;
}

function parseTier(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const tiers = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];
  if (!tiers.includes(raw))
    fail(`SANDBOX_DEFAULT_MESSAGING_LIMIT must be one of ${tiers.join(', ')}, got "${raw}"`);
  return raw;
}

function parseFlag(name: string): boolean | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'on') return true;
  if (raw === 'false' || raw === 'off') return false;
  fail(`${name} must be true or false, got "${raw}"`);
}

/** Long enough not to be guessed, as Herald asks of METRICS_TOKEN. */
function parseControlToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16) fail('SANDBOX_CONTROL_TOKEN must be at least 16 characters');
  return raw;
}

const port = parsePort(process.env.SANDBOX_PORT);
const defaultMessagingLimit = parseTier(process.env.SANDBOX_DEFAULT_MESSAGING_LIMIT);
const usMarketingRule = parseFlag('SANDBOX_US_MARKETING_RULE');
const mmApiTermsAtSignup = parseFlag('SANDBOX_MM_API_TERMS_AT_SIGNUP');
const reviewDelayMs = parseWholeNumber('SANDBOX_REVIEW_DELAY_MS', 0);
const webhookRetryBaseMs = parseWholeNumber('SANDBOX_WEBHOOK_RETRY_BASE_MS', 0);
const webhookRetryMaxWaitMs = parseWholeNumber('SANDBOX_WEBHOOK_RETRY_MAX_WAIT_MS', 0);
const webhookRetryMaxAgeMs = parseWholeNumber('SANDBOX_WEBHOOK_RETRY_MAX_AGE_MS', 0);
const webhookMaxAttempts = parseWholeNumber('SANDBOX_WEBHOOK_MAX_ATTEMPTS', 1);
const controlToken = parseControlToken(process.env.SANDBOX_CONTROL_TOKEN);
const webhookUrl = parseWebhookUrl(process.env.SANDBOX_WEBHOOK_URL);
const host = process.env.SANDBOX_HOST || '127.0.0.1';
const logFile = resolve(process.env.SANDBOX_LOG_FILE || './data/sandbox/calls.jsonl');
// The state (state.json, uploads/) lives beside the call log unless SANDBOX_STATE_DIR says otherwise.
const stateDir = process.env.SANDBOX_STATE_DIR ? resolve(process.env.SANDBOX_STATE_DIR) : undefined;

try {
  const sandbox = await startSandbox({
    port,
    host,
    logFile,
    ...(stateDir === undefined ? {} : { stateDir }),
    ...(process.env.META_APP_ID ? { appId: process.env.META_APP_ID } : {}),
    ...(process.env.META_APP_SECRET ? { appSecret: process.env.META_APP_SECRET } : {}),
    ...(process.env.SANDBOX_PUBLIC_URL ? { publicUrl: process.env.SANDBOX_PUBLIC_URL } : {}),
    ...(reviewDelayMs === undefined ? {} : { reviewDelayMs }),
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(webhookRetryBaseMs === undefined ? {} : { webhookRetryBaseMs }),
    ...(webhookRetryMaxWaitMs === undefined ? {} : { webhookRetryMaxWaitMs }),
    ...(webhookRetryMaxAgeMs === undefined ? {} : { webhookRetryMaxAgeMs }),
    ...(webhookMaxAttempts === undefined ? {} : { webhookMaxAttempts }),
    ...(controlToken === undefined ? {} : { controlToken }),
    ...(defaultMessagingLimit === undefined ? {} : { defaultMessagingLimit }),
    ...(usMarketingRule === undefined ? {} : { usMarketingRule }),
    ...(mmApiTermsAtSignup === undefined ? {} : { mmApiTermsAtSignup }),
  });
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);

  const stop = () => {
    // Open keep-alive sockets must not hold the process past a second.
    setTimeout(() => process.exit(0), 800).unref();
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  fail(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`);
}
