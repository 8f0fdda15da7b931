import type { EmbeddedSignupFailure } from '../../lib/embedded-signup';

/** What sign-up says when the provider's part fails. */
export const SIGNUP_FAILURE_MESSAGES: Record<EmbeddedSignupFailure, string> = {
  'sdk-missing': 'Facebook SDK not loaded. Please refresh the page.',
  'login-cancelled': 'Login was cancelled or failed. Please try again.',
  'signup-cancelled': 'Login was cancelled or failed. Please try again.',
  'missing-code': 'Missing required information. Please try again.',
  'missing-ids': 'Missing account information. Please try again.',
  unparseable: 'Failed to process sign up data. Please try again.',
};

export const MISSING_INFORMATION_MESSAGE = 'Missing required information. Please try again.';
export const SIGNUP_FAILED_MESSAGE = 'Failed to complete signup. Please try again.';
/** A 200 answer without the PIN the next screen needs. */
export const SIGNUP_UNPROCESSED_MESSAGE = 'Failed to process signup';
export const SIGNUP_SUCCESS_MESSAGE = 'Signup successful';
