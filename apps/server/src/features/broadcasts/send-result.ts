import type { Claimed } from './broadcast-engine';
import type { SendOutcome } from './message-sender';
import type { SendResult } from './message-settle';

const MAX_ATTEMPTS = 8;

/** What a send's outcome makes of its message row: settled, retried later with a back-off, or given up. */
export function toResult(message: Claimed, outcome: SendOutcome): SendResult {
  switch (outcome.kind) {
    case 'accepted':
      return { id: message.id, state: 'accepted', wamid: outcome.wamid, at: new Date() };
    case 'unconfirmed':
      return { id: message.id, state: 'unconfirmed', code: null, title: outcome.title };
    case 'failed':
      return { id: message.id, state: 'failed', code: outcome.code, title: outcome.title };
    case 'retry': {
      if (message.attempts >= MAX_ATTEMPTS) {
        return {
          id: message.id,
          state: 'failed',
          code: outcome.code,
          title: `Gave up after ${message.attempts} tries: ${outcome.title}`,
        };
      }
      // Exponential backoff with full jitter, at least what Meta asks (6 s per recipient for the pair rate).
      const backoff = Math.min(30_000, 500 * 2 ** (message.attempts - 1));
      const delayMs = Math.max(
        outcome.minDelayMs ?? 0,
        Math.round(backoff / 2 + Math.random() * (backoff / 2)),
      );
      return { id: message.id, state: 'queued', delayMs, code: outcome.code, title: outcome.title };
    }
  }
}
