import { SKIPPED_REASON, type RecipientOutcome } from '@herald/contracts';

/** A recipient's outcome as the delivery report and the history name it. */
export const OUTCOME_LABELS: Record<RecipientOutcome, string> = {
  pending: 'Pending',
  held: 'Held by WhatsApp',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  limited: 'Limited by WhatsApp',
  not_on_whatsapp: 'Not on WhatsApp',
  expired: 'Expired',
  // The report's reason group has the same title, so it is not said twice there.
  skipped: SKIPPED_REASON.title,
  unknown: 'Unknown',
  cancelled: 'Cancelled',
};

/** Labels that do not read as a sentence once lower-cased ('plus 3 skipped: frequency cap'). */
const IN_SENTENCE: Partial<Record<RecipientOutcome, string>> = {
  skipped: 'skipped by the frequency cap',
};

/** The label inside a sentence: 'Limited by WhatsApp' → 'limited by WhatsApp' (the brand keeps its capitals). */
export function outcomeInSentence(outcome: RecipientOutcome): string {
  const own = IN_SENTENCE[outcome];
  if (own) return own;
  const label = OUTCOME_LABELS[outcome];
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * Decision 036's words: messages WhatsApp accepted and has not yet reported sent ('plus 3 handed to WhatsApp'),
 * and a paused broadcast with nothing left to send, shown instead of 'Paused'.
 */
export const HANDED_TO_WHATSAPP = 'handed to WhatsApp';
export const ALL_HANDED_STATUS = 'All handed to WhatsApp';
export const ALL_HANDED_NOTE = 'Paused after every message had reached WhatsApp: nothing is held back.';
