import { LIMITED_RETRY_HOURS, META_ERROR } from './meta-outcomes';

/**
 * Why messages did not arrive, in plain words, for the delivery report's failure groups. Meta's codes are
 * those its Cloud API documentation lists; Herald's own reasons have no code and are told apart by their
 * title.
 */
export interface FailureReasonText {
  /** A short name for the group, e.g. "Limited by WhatsApp". */
  title: string;
  /** What happened, in plain words. */
  explanation: string;
  /** What the business can do about it. */
  action: string;
}

const reason = (title: string, explanation: string, action: string): FailureReasonText => ({
  title,
  explanation,
  action,
});

/**
 * Meta's error codes a broadcast meets, each explained once here (the server and the web both read it), keyed
 * by the codes meta-outcomes.ts names, which also say what each means for the message.
 */
export const META_FAILURE_REASONS: Readonly<Record<number, FailureReasonText>> = {
  [META_ERROR.marketingLimit]: reason(
    'Limited by WhatsApp',
    'WhatsApp did not deliver this marketing message to keep the number from getting too many (its per-user marketing limit). Marketing templates are not delivered to +1 (US) numbers at all.',
    `Nothing is wrong with your template. Herald tries again no sooner than ${LIMITED_RETRY_HOURS} hours later; leave out US numbers from marketing broadcasts.`,
  ),
  [META_ERROR.notOnWhatsApp]: reason(
    'Not on WhatsApp',
    'The number cannot receive WhatsApp messages: it is not on WhatsApp, has not accepted the latest terms, or uses an old version of the app.',
    'Check the number with the contact, or reach them another way. Herald does not try again.',
  ),
  [META_ERROR.stoppedMarketing]: reason(
    'Stopped marketing messages',
    'The contact chose to stop receiving marketing messages from your business.',
    'Herald marks the contact opted out; do not send them marketing messages.',
  ),
  [META_ERROR.outsideWindow]: reason(
    'Outside the 24-hour window',
    'More than 24 hours have passed since the contact last wrote to you, so only a template message may be sent.',
    'Send an approved template instead of a free-form message.',
  ),
  [META_ERROR.spamRateLimit]: reason(
    'Spam rate limit',
    'WhatsApp restricted how many messages this number may send, because earlier messages were blocked or reported as spam, or the messaging limit was reached.',
    'Send to fewer people for a while and make sure recipients want your messages.',
  ),
  [META_ERROR.pairRate]: reason(
    'Too many messages to one person',
    'Too many messages went from this number to the same person in a short time (the pair rate limit).',
    'Wait before messaging the same person again; Herald already retried with pauses.',
  ),
  [META_ERROR.throughput]: reason(
    'Throughput exceeded',
    'The number sent more messages per second than WhatsApp allows for it.',
    'Herald slows down and retries by itself; if it keeps happening, send fewer broadcasts at once.',
  ),
  [META_ERROR.parameterCount]: reason(
    'Wrong number of variables',
    'The message had a different number of variables than the template expects.',
    'Check the template’s variables and their values, then send again.',
  ),
  [META_ERROR.templateNotFound]: reason(
    'Template not found',
    'WhatsApp has no approved template with this name in this language.',
    'Check that the template is approved in this language, then send again.',
  ),
  [META_ERROR.textTooLong]: reason(
    'Message too long',
    'With the variables filled in, the message is longer than WhatsApp allows.',
    'Use shorter values for the variables or shorten the template.',
  ),
  [META_ERROR.formatPolicy]: reason(
    'Against WhatsApp’s content rules',
    'The filled-in message breaks WhatsApp’s format or content policy.',
    'Check the values put into the variables and the template’s wording.',
  ),
  [META_ERROR.parameterFormat]: reason(
    'Variable in the wrong format',
    'A variable’s value was not in the format the template expects (for example text where media was expected).',
    'Check the template’s variables and what each is bound to.',
  ),
  [META_ERROR.templatePaused]: reason(
    'Template paused',
    'WhatsApp paused the template because people reacted badly to it (low quality). Held messages were dropped.',
    'Improve the template or wait until WhatsApp lifts the pause, then resume the broadcast.',
  ),
  [META_ERROR.templateDisabled]: reason(
    'Template disabled',
    'WhatsApp disabled the template for good after pausing it repeatedly for low quality.',
    'Create a new, improved template and send a new broadcast with it.',
  ),
  [META_ERROR.parameterValue]: reason(
    'Problem with a variable’s value',
    'WhatsApp refused a variable’s value, for example one with line breaks, tabs, more than four spaces in a row, or too long.',
    'Check the contact values bound to the template’s variables.',
  ),
  [META_ERROR.somethingWentWrong]: reason(
    'Something went wrong at WhatsApp',
    'WhatsApp had an internal error and did not send the message, even after Herald retried.',
    'Try again later; if it persists, check WhatsApp’s status page.',
  ),
  [META_ERROR.accessTokenExpired]: reason(
    'Access expired',
    'The access token Herald uses for this business is no longer valid.',
    'Connect the WhatsApp account again from Settings, then send again.',
  ),
  [META_ERROR.policyBlocked]: reason(
    'Blocked for policy violations',
    'WhatsApp temporarily blocked this account from sending because of policy violations.',
    'Check your account’s status in WhatsApp Manager and appeal if you think it is wrong.',
  ),
  [META_ERROR.invalidParameter]: reason(
    'Invalid request',
    'WhatsApp refused a value in the request as invalid.',
    'Check the template and the contact’s values; if it persists, contact support with the error.',
  ),
};

/** Herald's own reasons (no Meta code): the title Herald stores says which. */
export const HERALD_FAILURE_REASONS = {
  optedOut: reason(
    'Opted out',
    'The contact opted out after the broadcast started, so Herald did not send the message.',
    'Nothing to do: Herald respects opt-outs. The contact can opt back in by writing START.',
  ),
  missingValue: reason(
    'Missing value',
    'A template variable is bound to a contact field that was empty for this contact, so Herald did not send a message with a blank in it.',
    'Fill in the field for these contacts, or give the variable a sample value, then send to them again.',
  ),
  unknownOutcome: reason(
    'Unknown outcome',
    'WhatsApp never said what happened to the message: it may or may not have been delivered.',
    'Nothing to do now: a status that arrives later still updates it. Do not resend, to avoid a duplicate.',
  ),
  notSent: reason(
    'Not sent by Herald',
    'Herald could not prepare or send the message.',
    'Check the template (and its media) still exist, then send to these contacts again.',
  ),
} as const;

/**
 * A message WhatsApp dropped at the end of its time-to-live (the 'expired' outcome): told by time, not by Meta's
 * code, so it has its own words whatever code came with it.
 */
export const EXPIRED_REASON: FailureReasonText = reason(
  'Expired',
  'WhatsApp kept trying to deliver the message for its time-to-live, then dropped it: the phone was off or offline all that time.',
  'Nothing is wrong with the number or the template. Send to these contacts again later, or give the template a longer time-to-live.',
);

/**
 * A message Herald did not send because its person already had the account's frequency cap of marketing
 * messages (the 'skipped' outcome, decision 098): not a failure, and its own words whatever the row says.
 */
export const SKIPPED_REASON: FailureReasonText = reason(
  'Skipped: frequency cap',
  'This person had already received as many marketing messages as the account’s frequency cap allows in its window, so Herald did not send this one.',
  'Nothing to fix. Send to these contacts again once the window has passed, or change the cap in Settings.',
);

/** Any other code: Meta's own title is kept, with a general explanation. */
export const UNKNOWN_CODE_REASON: FailureReasonText = reason(
  'Refused by WhatsApp',
  'WhatsApp did not deliver the message and gave the error shown.',
  'Look the error code up in Meta’s WhatsApp error codes; fix what it names, then send again.',
);

/**
 * The plain-words reason for a message's error: by Meta's code when there is one, else by Herald's title
 * (opted out, a missing value, an unknown outcome), else a fallback. For an unlisted code the title is Meta's.
 */
export function failureReason(code: number | null, title: string | null): FailureReasonText {
  if (code !== null) {
    const known = META_FAILURE_REASONS[code];
    if (known) return known;
    return { ...UNKNOWN_CODE_REASON, title: title?.trim() || `Error ${code}` };
  }
  const text = title ?? '';
  if (/opted out/i.test(text)) return HERALD_FAILURE_REASONS.optedOut;
  if (/^(The contact has no |No value for )/.test(text)) return HERALD_FAILURE_REASONS.missingValue;
  if (/^No delivery status arrived/.test(text)) return HERALD_FAILURE_REASONS.unknownOutcome;
  return HERALD_FAILURE_REASONS.notSent;
}
