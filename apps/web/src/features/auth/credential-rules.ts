import {
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  PASSWORD_MESSAGE,
  PASSWORD_MIN_LENGTH,
  PIN_LENGTH,
  PIN_MESSAGE,
} from '@herald/contracts';

/** The e-mail rule, from the shared contracts; null when the address is fine. */
export function emailError(email: string): string | null {
  return EMAIL_PATTERN.test(email.trim()) ? null : EMAIL_MESSAGE;
}

/** The password rule (at least 8 characters); null when it is fine. */
export function passwordError(password: string): string | null {
  return password.length >= PASSWORD_MIN_LENGTH ? null : PASSWORD_MESSAGE;
}

/** A PIN chosen at sign-up: exactly 6 digits (contracts' PinSchema); null when it is fine. */
export function pinError(pin: string): string | null {
  return pin.length === PIN_LENGTH && /^\d+$/.test(pin) ? null : PIN_MESSAGE;
}
