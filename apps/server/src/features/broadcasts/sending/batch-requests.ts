import type { Pool } from '../../../db/pool';
import { forgetMmApiStatus, type SendEndpoint } from '../../marketing-messages/index';
import type { MessageSender, SendOutcome } from './message-sender';
import type { SendResult } from './message-settle';
import { RequestMarks } from './request-marks';
import type { BatchGate } from './send-gate';
import { toResult } from './send-result';
import { addressee, type Claimed, type SendContext } from './sender-batch';
import type { TokenBucket } from './token-bucket';
import type { UnansweredSends } from './unanswered-sends';

/** A claimed message rendered and allowed by the limits: ready to be requested. */
export interface Sendable {
  message: Claimed;
  template: object;
  /** `/messages`, or `/marketing_messages` for a marketing template of an onboarded account. */
  endpoint: SendEndpoint;
}

/** What requesting a batch needs from the engine running it. */
export interface BatchRequester {
  pool: Pool;
  sender: MessageSender;
  /** The engine's lease holder name: marks are written only while it holds the number's lease. */
  holder: string;
  log?: { error: (details: object, message: string) => void };
  stopped(): boolean;
  /** Settles when the worker starts stopping, so a send waiting for the bucket gives its row back at once. */
  stopping: Promise<void>;
}

/**
 * Requests a prepared batch at the number's pace, in claim order; answers each handled message's result. A row
 * is requested only once it has the bucket's token, a connected socket holding its request unwritten, and its
 * own mark (request-marks.ts); the request is written before the mark commits, in the same call: so a kill
 * leaves unconfirmed only rows whose requests were on their way to Meta, and gives the rest back to the queue.
 * Marks are not awaited in turn: while one is written the next rows take their tokens, so the database's round
 * trips do not slow the pace.
 */
export async function requestBatch(
  deps: BatchRequester,
  context: SendContext,
  bucket: TokenBucket,
  gate: BatchGate,
  sendable: Sendable[],
  unanswered: UnansweredSends,
): Promise<SendResult[]> {
  const marks = new RequestMarks(deps.pool, {
    phoneId: context.phoneId,
    accountId: context.accountId,
    holder: deps.holder,
  });
  const sends: Array<Promise<SendResult | null>> = [];
  let mmApiRefused = false;
  const answered = (message: Claimed, outcome: SendOutcome) => {
    unanswered.saw(message.broadcast_id, outcome);
    if (outcome.kind === 'retry' && outcome.mmApiRefused) mmApiRefused = true;
    return gate.saw(toResult(message, outcome));
  };
  for (const { message, template, endpoint } of sendable) {
    // A stopping worker sends nothing more: a row never requested goes back to the queue rather than
    // being left 'sending'.
    const go =
      !deps.stopped() &&
      gate.allows(message.broadcast_id) &&
      (await Promise.race([bucket.take().then(() => true), deps.stopping.then(() => false)]));
    const opened = go
      ? await deps.sender.open(
          context.token,
          context.phoneNumberId,
          {
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            ...addressee(message.whatsapp_number),
            type: 'template',
            biz_opaque_callback_data: String(message.id),
            template,
          },
          endpoint,
        )
      : null;
    // No connection could be made: nothing was sent, nothing needs marking; the row is retried.
    if (opened && 'notSent' in opened) {
      sends.push(Promise.resolve(answered(message, opened.notSent)));
      continue;
    }
    // A failed mark: the rest of the batch is left as it is, neither requested nor given back: whoever
    // starts a sender on the number next gives unmarked rows back to the queue (sender-lease.ts).
    if (marks.failed) {
      opened?.abandon();
      break;
    }
    if (!opened || deps.stopped() || !gate.allows(message.broadcast_id)) {
      opened?.abandon();
      sends.push(Promise.resolve({ id: message.id, state: 'released' }));
      continue;
    }
    // Written in the call that learns of the mark, before it commits: nothing waits between the two. Not
    // marked (the lease was lost, or a takeover moved the row) or the mark failed: not this sender's to
    // request, nor to give back.
    sends.push(
      marks.mark(message.id, opened.send).then((sent) => {
        if (sent === null) {
          opened.abandon();
          return null;
        }
        return sent.answer.then((outcome) => answered(message, outcome));
      }),
    );
  }
  const results = await Promise.all(sends);
  // Its retries, and the rest of its marketing, go through /messages until Meta is asked again (Settings).
  if (mmApiRefused) await forgetMmApiStatus(deps.pool, context.accountId);
  if (marks.failed) deps.log?.error({ err: marks.error }, 'marking requests failed');
  await marks.markWhatWasSent(deps.stopping).catch((error: unknown) => {
    deps.log?.error({ err: error }, 'marking requests already written failed');
  });
  return results.filter((result): result is SendResult => result !== null);
}
