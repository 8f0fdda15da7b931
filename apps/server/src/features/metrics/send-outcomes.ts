import { Counter } from 'prom-client';
import type { SendResult } from '../broadcasts/message-settle';

/**
 * Messages sent, by outcome and Meta's error code: process-wide (one sender per worker process), counted where
 * a batch's results are written, and added to each metrics registry that exposes it (metrics-registry.ts).
 */
export const messagesSent = new Counter({
  name: 'herald_messages_sent_total',
  help: "Cloud API sends settled, by outcome (accepted, held, failed, limited, not_on_whatsapp, unconfirmed, retry, template_paused) and Meta's error code ('' when none)",
  labelNames: ['outcome', 'code'] as const,
  registers: [],
});

/** Counts a settled batch; rows given back unsent (a stopping worker's) were never requested and do not count. */
export function countSendResults(results: SendResult[]): void {
  for (const result of results) {
    if (result.state === 'released') continue;
    const outcome = result.state === 'queued' ? 'retry' : result.state;
    const code = 'code' in result && result.code !== null ? String(result.code) : '';
    messagesSent.inc({ outcome, code });
  }
}
