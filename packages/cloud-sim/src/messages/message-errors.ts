import { GraphError } from '../errors';

/** The Cloud API's answers to a refused `POST /{phone-number-id}/messages`, with Meta's codes and texts. */

export function templateDoesNotExist(name: string, language: string): GraphError {
  return new GraphError(404, 132001, '(#132001) Template name does not exist in the translation', {
    details: `template name (${name}) does not exist in ${language}`,
  });
}

export function templatePaused(name: string): GraphError {
  return new GraphError(400, 132015, '(#132015) Template is paused', {
    details: `Template ${name} is paused due to low quality so it cannot be sent in a template message`,
  });
}

export function templateDisabled(name: string): GraphError {
  return new GraphError(400, 132016, '(#132016) Template is disabled', {
    details: `Template ${name} has been paused too many times due to low quality and is now permanently disabled`,
  });
}

export function parameterCountMismatch(component: string, given: number, expected: number): GraphError {
  return new GraphError(
    400,
    132000,
    '(#132000) Number of parameters does not match the expected number of params',
    {
      details: `${component}: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
    },
  );
}

export function parameterFormatMismatch(details: string): GraphError {
  return new GraphError(
    400,
    132012,
    '(#132012) Parameter format does not match format in the created template',
    {
      details,
    },
  );
}

export function throughputExceeded(): GraphError {
  return new GraphError(400, 130429, '(#130429) Rate limit hit', {
    details: 'Cloud API message throughput has been reached.',
  });
}

export function pairRateLimitHit(): GraphError {
  return new GraphError(400, 131056, '(#131056) (Business Account, Consumer Account) pair rate limit hit', {
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  });
}

/** Meta's answer when a send would reach one more unique user than the portfolio's messaging limit. */
export function spamRateLimitHit(): GraphError {
  return new GraphError(400, 131048, '(#131048) Spam rate limit hit', {
    details:
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number. This may be because too many previous messages were blocked or flagged as spam.',
  });
}

export function somethingWentWrong(): GraphError {
  return new GraphError(500, 131000, '(#131000) Something went wrong', {
    details: 'Something went wrong',
  });
}

const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

/** Why a message the sandbox accepted fails later, in its `failed` status webhook. */
export type FailureKind = 'undeliverable' | 'marketing-limit' | 'paced-drop' | 're-engagement' | 'expired';

export function failureError(kind: FailureKind) {
  if (kind === 'marketing-limit') return marketingLimitError();
  if (kind === 'expired') return timeToLiveExpiredError();
  if (kind === 're-engagement') return reEngagementError();
  if (kind === 'paced-drop') return pacedDropError();
  return undeliverableError();
}

/** Meta's per-user marketing limit (and its pause of marketing templates to US numbers). */
export function marketingLimitError() {
  return {
    code: 131049,
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    message: 'This message was not delivered to maintain healthy ecosystem engagement.',
    error_data: {
      details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    },
    href: ERROR_CODES_HREF,
  };
}

/** A message held by template pacing, dropped because the template's quality was found low. */
export function pacedDropError() {
  return {
    code: 132015,
    title: 'Template is Paused',
    message: 'Template is Paused',
    error_data: {
      details: 'Template is paused due to low quality so it cannot be sent in a template message.',
    },
    href: ERROR_CODES_HREF,
  };
}

/** The `errors[]` entry of a `failed` status for a recipient the sandbox treats as undeliverable. */
export function undeliverableError() {
  return {
    code: 131026,
    title: 'Message undeliverable',
    message: 'Message undeliverable',
    error_data: {
      details:
        'Message Undeliverable: the recipient is not a WhatsApp user, has not accepted the latest terms, or uses an old WhatsApp version.',
    },
    href: ERROR_CODES_HREF,
  };
}

/**
 * A message still undelivered when its time-to-live ran out, dropped by Meta. Meta does not document this
 * webhook: 131026 with these details is the sandbox's choice (decision 092), so a client should recognise
 * expiry by its time (at or after acceptance + TTL), not by the code.
 */
export function timeToLiveExpiredError() {
  return {
    code: 131026,
    title: 'Message undeliverable',
    message: 'Message undeliverable',
    error_data: {
      details: 'Message not delivered within its time-to-live (message_send_ttl_seconds).',
    },
    href: ERROR_CODES_HREF,
  };
}

/**
 * A message other than a template sent outside a customer service window: Meta accepts it, then fails it in
 * its `failed` status (the send's answer is an ordinary 200).
 */
export function reEngagementError() {
  return {
    code: 131047,
    title: 'Re-engagement message',
    message: 'Re-engagement message',
    error_data: {
      details:
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    },
    href: ERROR_CODES_HREF,
  };
}
