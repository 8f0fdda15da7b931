/**
 * How long Meta keeps trying a webhook its receiver has not taken: with decreasing frequency (exponential
 * back-off) for up to 7 days (decision 066). Meta publishes the shape and the bound, not the intervals: the
 * waits below are the sandbox's own choice, and every one of them can be shortened for tests.
 */
export const META_WEBHOOK_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_RETRY_BASE_MS = 500;
/** Waits stop growing here: an hour apart, a receiver back after a long outage hears within the hour. */
export const DEFAULT_RETRY_MAX_WAIT_MS = 60 * 60 * 1000;
/** setTimeout's own ceiling (about 24.8 days); a longer wait would fire at once. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface WebhookRetryPolicy {
  /** Wait before the 2nd attempt; each later wait doubles. */
  retryBaseMs: number;
  /** No wait between two attempts is longer. */
  retryMaxWaitMs: number;
  /** A delivery is given up once its next attempt would come later than this after it was first posted. */
  retryMaxAgeMs: number;
  /** Attempts in all, the first included; null: as many as the max age allows (Meta's way). */
  maxAttempts: number | null;
}

/** The wait after the `attemptsMade`-th failed attempt (1 for the first). */
export function retryWait(policy: WebhookRetryPolicy, attemptsMade: number): number {
  const doubled = policy.retryBaseMs * 2 ** Math.max(0, Math.min(attemptsMade - 1, 60));
  return Math.min(policy.retryMaxWaitMs, doubled, LONGEST_TIMER_MS);
}

export type NextAttempt = { giveUp: true; reason: string } | { giveUp: false; at: number };

/**
 * When to try a failed delivery again, or that it is given up: after `maxAttempts`, or when the next attempt
 * would fall past the max age (measured from `createdAt`, so a restart in between does not make it younger).
 */
export function nextAttempt(
  policy: WebhookRetryPolicy,
  delivery: { attemptsMade: number; createdAt: number },
  now: number,
): NextAttempt {
  if (policy.maxAttempts !== null && delivery.attemptsMade >= policy.maxAttempts) {
    return { giveUp: true, reason: `no answer 2xx after ${delivery.attemptsMade} attempts` };
  }
  const at = now + retryWait(policy, delivery.attemptsMade);
  if (at - delivery.createdAt > policy.retryMaxAgeMs) {
    return { giveUp: true, reason: `no answer 2xx within ${policy.retryMaxAgeMs} ms of the first attempt` };
  }
  return { giveUp: false, at };
}
