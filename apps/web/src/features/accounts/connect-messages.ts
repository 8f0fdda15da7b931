import type { EmbeddedSignupFailure } from '../../lib/embedded-signup';

export const CONNECT_SUCCESS_MESSAGE = 'WhatsApp account connected successfully!';
export const CONNECT_FAILED_MESSAGE = 'Failed to connect WhatsApp account';
export const MISSING_CREDENTIALS_MESSAGE = 'Missing required credentials. Please try connecting again.';

/** What "Connect New Account" says when the provider's part fails. */
export const CONNECT_FAILURE_MESSAGES: Record<EmbeddedSignupFailure, string> = {
  'sdk-missing': 'Facebook SDK not loaded. Please refresh the page.',
  'login-cancelled': 'Login was cancelled or failed. Please try again.',
  'signup-cancelled': 'Login was cancelled or failed. Please try again.',
  'missing-code': MISSING_CREDENTIALS_MESSAGE,
  'missing-ids': MISSING_CREDENTIALS_MESSAGE,
  unparseable: 'Failed to process WhatsApp connection',
};

/** 'Failed to connect WhatsApp account', plus the server's message when it gave one. */
export function connectFailedMessage(serverText: string | undefined): string {
  return serverText ? `${CONNECT_FAILED_MESSAGE}: ${serverText}` : CONNECT_FAILED_MESSAGE;
}
