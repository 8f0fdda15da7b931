import type { Claimed } from './broadcast-engine';
import type { SendOutcome } from './message-sender';
import type { SendResult } from './message-settle';

const MAX_ATTEMPTS = 8;

/** What a send's outcome makes of its message row: settled, retried later with a back-off, or given up. */
export function toResult(message: Claimed, outcome: SendOutcome): SendResult {
  switch (outcome.kind) {
    case 'accepted':
    case 'held':
      // Held by template pacing: Meta has it (a wamid), so it is neither failed nor retried (decision 029).
      return { id: message.id, state: outcome.kind, wamid: outcome.wamid, at: new Date() };
    case 'unconfirmed':
      return { id: message.id, state: 'unconfirmed', code: null, title: outcome.title };
    case 'failed':
    case 'limited':
    case 'not_on_whatsapp':
      return { id: message.id, state: outcome.kind, code: outcome.code, title: outcome.title };
    case 'template_paused':
      // Nothing was sent: the row goes back to the queue and its broadcast pauses (decision 029).
      return {
        id: message.id,
        state: 'template_paused',
        broadcastId: message.broadcast_id,
        code: outcome.code,
        why: outcome.details ?? outcome.title.replace(/^\(#\d+\)\s*/, ''),
      };
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
