import type { InboundMessage, MessagesValue } from '../webhooks/messages-value';
import type { WebhookHandler } from '../webhooks/webhook-processor';

/** Replies that stop marketing messages, and the ones that start them again (trimmed, any case). */
const STOP_WORDS = new Set(['stop', 'unsubscribe', 'stop promotions']);
const START_WORDS = new Set(['start', 'subscribe']);
/** Meta's failure when the person has stopped marketing messages from this business. */
const STOPPED_MARKETING = 131050;

function wordsOf(message: InboundMessage): string[] {
  const words = [message.text?.body, message.button?.payload, message.button?.text];
  return words.filter((w): w is string => typeof w === 'string').map((w) => w.trim().toLowerCase());
}

/**
 * Opt-outs from the `messages` webhook: a person who replies STOP (typed, or a quick-reply button) or whose
 * message fails with 131050 is opted out of this account's broadcasts; replying START opts them back in.
 * Broadcast audiences leave opted-out contacts out (audience-sql.ts). Only the account the entry names is touched.
 */
export const applyOptOuts: WebhookHandler = async (client, change) => {
  const value = change.value as MessagesValue | undefined;
  const stop = new Set<string>();
  const start = new Set<string>();
  for (const message of value?.messages ?? []) {
    if (typeof message.from !== 'string') continue;
    const words = wordsOf(message);
    if (words.some((w) => STOP_WORDS.has(w))) stop.add(message.from);
    else if (words.some((w) => START_WORDS.has(w))) start.add(message.from);
  }
  for (const status of value?.statuses ?? []) {
    if (
      status.status === 'failed' &&
      typeof status.recipient_id === 'string' &&
      status.errors?.some((e) => e.code === STOPPED_MARKETING)
    ) {
      stop.add(status.recipient_id);
    }
  }
  for (const number of start) stop.delete(number);
  const update = (optedOut: boolean, numbers: Set<string>) =>
    client.query(
      `update contacts c set opted_out_at = ${optedOut ? 'coalesce(c.opted_out_at, now())' : 'null'}, updated_at = now()
         from waba_accounts w
        where w.waba_id = $1 and c.waba_account_id = w.id
          and c.whatsapp_number = any(select '+' || ltrim(n, '+') from unnest($2::text[]) n)
          and (c.opted_out_at is null) = $3`,
      [change.wabaId, [...numbers], optedOut],
    );
  if (stop.size > 0) await update(true, stop);
  if (start.size > 0) await update(false, start);
};
