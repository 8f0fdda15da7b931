import { Counter } from 'prom-client';

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

/**
 * What the counter reads of a send's result: its outcome and Meta's error code. Stated here, so the metrics need
 * nothing of the sender; the sender's results (broadcasts/message-settle.ts) have this shape.
 */
export type SettledSend = { state: string } | { state: string; code: number | null };

/**
 * Counts a settled batch; rows given back unsent (a stopping worker's) and rows the frequency cap skipped were
 * never requested and do not count.
 */
export function countSendResults(results: readonly SettledSend[]): void {
  for (const result of results) {
    if (result.state === 'released' || result.state === 'skipped') continue;
    const outcome = result.state === 'queued' ? 'retry' : result.state;
    const code = 'code' in result && result.code !== null ? String(result.code) : '';
    messagesSent.inc({ outcome, code });
  }
}
