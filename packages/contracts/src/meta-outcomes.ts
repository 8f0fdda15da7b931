/**
 * Meta's Cloud API error codes and what each means for a message, named once: the sender, the status webhooks
 * and the delivery report's words (failure-reasons.ts) all read them here, so a code means the same everywhere.
 * The codes are those of Meta's error-code reference; the sandbox (packages/cloud-sim) plays Meta and keeps its
 * own, so it never depends on how Herald reads them.
 */
export const META_ERROR = {
  /** API Service: temporarily unavailable because of downtime. */
  temporarilyDown: 2,
  /** API Too Many Calls: the app's call rate limit. */
  tooManyCalls: 4,
  /** Invalid parameter (also a code or an id the token does not cover). */
  invalidParameter: 100,
  /** The access token expired or was revoked. */
  accessTokenExpired: 190,
  /** The account is temporarily blocked for policy violations. */
  policyBlocked: 368,
  /** The WhatsApp Business Account's rate limit. */
  accountRateLimit: 80007,
  /** Cloud API throughput: more messages per second than the number may send. */
  throughput: 130429,
  /** Something went wrong at Meta. */
  somethingWentWrong: 131000,
  /** Service unavailable. */
  serviceUnavailable: 131016,
  /** Message undeliverable: the number is not on WhatsApp (or cannot receive messages). */
  notOnWhatsApp: 131026,
  /** Re-engagement: more than 24 hours since the contact last wrote. */
  outsideWindow: 131047,
  /** Spam rate limit. */
  spamRateLimit: 131048,
  /** Not delivered to keep engagement healthy: the per-user marketing limit. */
  marketingLimit: 131049,
  /** The contact stopped marketing messages from the business. */
  stoppedMarketing: 131050,
  /** The pair rate limit: too many messages from one number to the same person. */
  pairRate: 131056,
  /** Template parameter count mismatch. */
  parameterCount: 132000,
  /** Template does not exist (in this language). */
  templateNotFound: 132001,
  /** Template hydrated text too long. */
  textTooLong: 132005,
  /** Template format character policy violated. */
  formatPolicy: 132007,
  /** Template parameter format mismatch. */
  parameterFormat: 132012,
  /** Template is paused for low quality. */
  templatePaused: 132015,
  /** Template is disabled for good. */
  templateDisabled: 132016,
  /** Template parameter issue (a value with line breaks, tabs, too many spaces…). */
  parameterValue: 132018,
} as const;

/**
 * What a Meta error means for the message it answered:
 * - `retry`: "not now" rather than "never" (a rate limit or a passing outage): sent again later;
 * - `limited`: the per-user marketing limit, an outcome of its own: sent again no sooner than a day later;
 * - `not_on_whatsapp`: an outcome of its own, never sent again;
 * - `template_paused`: the template is paused or disabled: nothing was sent and the broadcast pauses;
 * - `failed`: failed for good.
 */
export type MetaErrorOutcome = 'retry' | 'limited' | 'not_on_whatsapp' | 'template_paused' | 'failed';

const OUTCOMES: ReadonlyMap<number, Exclude<MetaErrorOutcome, 'failed'>> = new Map([
  [META_ERROR.throughput, 'retry'],
  [META_ERROR.pairRate, 'retry'],
  [META_ERROR.somethingWentWrong, 'retry'],
  [META_ERROR.serviceUnavailable, 'retry'],
  [META_ERROR.tooManyCalls, 'retry'],
  [META_ERROR.accountRateLimit, 'retry'],
  [META_ERROR.temporarilyDown, 'retry'],
  [META_ERROR.marketingLimit, 'limited'],
  [META_ERROR.notOnWhatsApp, 'not_on_whatsapp'],
  [META_ERROR.templatePaused, 'template_paused'],
  [META_ERROR.templateDisabled, 'template_paused'],
]);

/** What Meta's error `code` means for the message; any code not named above failed for good. */
export function outcomeOfMetaError(code: number | null): MetaErrorOutcome {
  return (code === null ? undefined : OUTCOMES.get(code)) ?? 'failed';
}

/** The codes of one outcome, e.g. for a SQL statement that tells them apart (never re-typed there). */
export function metaErrorCodes(outcome: Exclude<MetaErrorOutcome, 'failed'>): number[] {
  return [...OUTCOMES].filter(([, of]) => of === outcome).map(([code]) => code);
}

/** Meta's pair rate allows about one message every 6 seconds to the same person: no retry comes sooner. */
export const PAIR_RATE_RETRY_MS = 6_000;

/** The least wait before a retry of a message Meta answered with `code`, when Meta asks one. */
export function metaRetryDelayMs(code: number): number | undefined {
  return code === META_ERROR.pairRate ? PAIR_RATE_RETRY_MS : undefined;
}

/** How long a message limited by WhatsApp waits before it may go again: Meta says not at once. */
export const LIMITED_RETRY_HOURS = 24;
