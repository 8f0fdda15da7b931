import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from './constants';

/** Only lowercase letters and underscores (stricter than Meta's `[a-z0-9_]`). */
export const TEMPLATE_NAME_PATTERN = /^[a-z_]+$/;

/**
 * Template name, applied as the user types: lower-cased and every whitespace character turned into an
 * underscore ('Summer Sale' → 'summer_sale'). Nothing else is removed, so a forbidden character stays visible
 * and `templateNameError` explains it.
 */
export function normalizeTemplateName(typed: string): string {
  return typed.toLowerCase().replace(/\s/g, '_');
}

/** The message for a name, or null when it is acceptable. The name is checked as given (not normalised). */
export function templateNameError(name: string): string | null {
  if (name.length === 0) return TEMPLATE_MESSAGES.nameRequired;
  if (!TEMPLATE_NAME_PATTERN.test(name)) return TEMPLATE_MESSAGES.nameInvalid;
  if (name.length > TEMPLATE_LIMITS.nameMaxLength) return TEMPLATE_MESSAGES.nameTooLong;
  return null;
}
