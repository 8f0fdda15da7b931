import type { GraphError } from '../errors';
import { invalidParameter } from '../errors';

/**
 * Business-scoped user ids (2026): a user who hides their number behind a username is known to a business by a
 * BSUID like `US.13491208655302741918` (country, dot, up to 128 letters and digits; `ENT.` for a parent BSUID).
 * The sandbox treats any recipient written that way as such a user: it has no phone number, so its statuses
 * carry `recipient_user_id` and no `recipient_id`, and its inbound messages `from_user_id` and no `from`.
 */
const BSUID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

export const isBsuid = (value: unknown): value is string => typeof value === 'string' && BSUID.test(value);

/** `recipient` of a send, when the send names no `to` (with both, Meta sends to `to`). */
export function bsuidRecipient(params: Record<string, unknown>): string | undefined {
  if (params.to !== undefined && params.to !== '') return undefined;
  const recipient = params.recipient;
  if (recipient === undefined || recipient === '') return undefined;
  if (!isBsuid(recipient)) {
    throw invalidParameter('recipient must be a business-scoped user id such as US.13491208655302741918');
  }
  return recipient;
}

/** Meta's rule: an authentication template cannot be sent to a BSUID (the one-time code needs the number). */
export function authenticationToBsuid(): GraphError {
  return invalidParameter('authentication templates cannot be sent to a business-scoped user id');
}
