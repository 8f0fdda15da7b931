import type { Claimed } from './sender-batch';
import type { SendOutcome } from './message-sender';
import type { SendResult } from './message-settle';

/**
 * Tries of a message whose sends fail for a passing reason (5xx, a refused connection, 130429, 131056). With
 * the back-off doubling from 0.5 s to its 60 s cap, 15 tries span about 4.5 to 9 minutes: an outage of the
 * Cloud API of a few minutes delays the broadcast and fails nobody (the fault suite's 60 s outage).
 */
const MAX_ATTEMPTS = 15;
const MAX_BACKOFF_MS = 60_000;

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
      const backoff = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (message.attempts - 1));
      const delayMs = Math.max(
        outcome.minDelayMs ?? 0,
        Math.round(backoff / 2 + Math.random() * (backoff / 2)),
      );
      return { id: message.id, state: 'queued', delayMs, code: outcome.code, title: outcome.title };
    }
  }
}
