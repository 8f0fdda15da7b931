import type { Pool } from '../../db/pool';
import type { MessageSender } from './message-sender';
import type { SendResult } from './message-settle';
import { markGroupSize, RequestMarks } from './request-marks';
import type { BatchGate } from './send-gate';
import { toResult } from './send-result';
import { addressee, type Claimed, type SendContext } from './sender-batch';
import type { TokenBucket } from './token-bucket';
import type { UnansweredSends } from './unanswered-sends';

/** A claimed message rendered and allowed by the limits: ready to be requested. */
export interface Sendable {
  message: Claimed;
  template: object;
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
 * Requests a prepared batch at the number's pace, in claim order; answers each handled message's result. Each
 * row is marked requested (a group at a time, request-marks.ts) before its request goes out, so a kill leaves
 * unconfirmed only rows that may have reached Meta.
 */
export async function requestBatch(
  deps: BatchRequester,
  context: SendContext,
  bucket: TokenBucket,
  gate: BatchGate,
  sendable: Sendable[],
  unanswered: UnansweredSends,
): Promise<SendResult[]> {
  const marks = new RequestMarks(
    deps.pool,
    { phoneId: context.phoneId, accountId: context.accountId, holder: deps.holder },
    sendable.map(({ message }) => message.id),
    markGroupSize(context.mps),
  );
  const sends: Array<Promise<SendResult>> = [];
  for (const [index, { message, template }] of sendable.entries()) {
    // A stopping worker sends nothing more: a row never requested goes back to the queue rather than
    // being left 'sending'.
    const go =
      !deps.stopped() &&
      gate.allows(message.broadcast_id) &&
      (await Promise.race([bucket.take().then(() => true), deps.stopping.then(() => false)]));
    if (!go || deps.stopped() || !gate.allows(message.broadcast_id)) {
      sends.push(Promise.resolve({ id: message.id, state: 'released' }));
      continue;
    }
    // Not marked (the lease was lost, or a takeover moved the row) or the mark failed: not this sender's to
    // request, nor to give back. The rest of the batch is left as it is: whoever starts a sender on the
    // number next gives unmarked rows back to the queue (sender-lease.ts).
    const marked = await marks.before(index).catch((error: unknown) => {
      deps.log?.error({ err: error }, 'marking requests failed');
      return null;
    });
    if (marked === null) break;
    if (!marked) continue;
    sends.push(
      deps.sender
        .send(context.token, context.phoneNumberId, {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          ...addressee(message.whatsapp_number),
          type: 'template',
          biz_opaque_callback_data: String(message.id),
          template,
        })
        .then((outcome) => {
          unanswered.saw(message.broadcast_id, outcome);
          return gate.saw(toResult(message, outcome));
        }),
    );
  }
  return Promise.all(sends);
}
