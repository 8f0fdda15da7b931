import type { Pool } from '../../../db/pool';
import { countSendResults } from '../../metrics';
import { requeueUnsent, retryLater, settleAccepted, settleFinal } from '../message-rows';
import { pauseForTemplateAnswers, type TemplatePausedResult } from './template-pause';

/** What one send came to, as the sender writes it back to the message row. */
export type SendResult =
  | { id: number; state: 'accepted' | 'held'; wamid: string; at: Date }
  | { id: number; state: 'queued'; delayMs: number; code: number; title: string }
  | {
      id: number;
      state: 'failed' | 'unconfirmed' | 'limited' | 'not_on_whatsapp' | 'skipped';
      code: number | null;
      title: string;
    }
  /** Meta refused the template (132015/132016): not sent, back to the queue, and its broadcast pauses. */
  | TemplatePausedResult
  /** Never requested (the worker is stopping): back to the queue as it was, the attempt not counted. */
  | { id: number; state: 'released' };

/**
 * Writes a batch's outcomes in one statement per outcome kind (message-rows.ts), each its own transaction
 * holding only message rows, locked in id order (decision 022). The caller recounts the broadcasts afterwards.
 */
export async function settleMessages(pool: Pool, accountId: number, results: SendResult[]): Promise<void> {
  const accepted = results.filter(
    (r): r is Extract<SendResult, { state: 'accepted' | 'held' }> =>
      r.state === 'accepted' || r.state === 'held',
  );
  const retries = results.filter((r): r is Extract<SendResult, { state: 'queued' }> => r.state === 'queued');
  const final = results.filter(
    (
      r,
    ): r is Extract<
      SendResult,
      { state: 'failed' | 'unconfirmed' | 'limited' | 'not_on_whatsapp' | 'skipped' }
    > =>
      r.state === 'failed' ||
      r.state === 'unconfirmed' ||
      r.state === 'limited' ||
      r.state === 'not_on_whatsapp' ||
      r.state === 'skipped',
  );
  const paused = results.filter((r): r is TemplatePausedResult => r.state === 'template_paused');
  // The broadcast pauses before its rows go back to the queue, so no sender claims them in between.
  if (paused.length > 0) await pauseForTemplateAnswers(pool, paused);
  const released = results
    .filter((r) => r.state === 'released' || r.state === 'template_paused')
    .map((r) => r.id);
  if (released.length > 0) await requeueUnsent(pool, accountId, released);
  if (accepted.length > 0) await settleAccepted(pool, accountId, accepted);
  if (retries.length > 0) await retryLater(pool, accountId, retries);
  if (final.length > 0) await settleFinal(pool, accountId, final);
  countSendResults(results);
}
