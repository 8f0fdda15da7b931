import { type ButtonType, TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from './constants';
import { findVariables, hasIncompleteVariable } from './variables';

/** A button as the payload (`type`) or the form (`sub_type`) holds it. */
export interface ButtonLike {
  type?: string | undefined;
  sub_type?: string | undefined;
}

export type CanAddButtonResult = { ok: true } | { ok: false; message: string };

function typeOf(button: ButtonLike): string | undefined {
  return button.type ?? button.sub_type;
}

/**
 * Buttons: may a button of `type` be added to `buttons`? The alerts are the spec's ('Only one phone
 * number button allowed', 'Maximum 2 URL buttons allowed'); the total of 10 is Meta's.
 */
export function canAddButton(buttons: readonly ButtonLike[], type: ButtonType): CanAddButtonResult {
  if (buttons.length >= TEMPLATE_LIMITS.maxButtons)
    return { ok: false, message: TEMPLATE_MESSAGES.buttonLimit };
  const count = buttons.filter((b) => typeOf(b) === type).length;
  if (type === 'PHONE_NUMBER' && count >= TEMPLATE_LIMITS.maxPhoneButtons)
    return { ok: false, message: TEMPLATE_MESSAGES.phoneButtonLimit };
  if (type === 'URL' && count >= TEMPLATE_LIMITS.maxUrlButtons)
    return { ok: false, message: TEMPLATE_MESSAGES.urlButtonLimit };
  return { ok: true };
}

/** The example used when a dynamic URL's example field is left empty. */
export const DEFAULT_URL_EXAMPLE = 'default_value';

/** A URL is dynamic when it holds a `{{` placeholder. */
export function isDynamicUrl(url: string): boolean {
  return url.includes('{{');
}

/** A new dynamic URL defaults to the typed URL with {{1}} at its end. */
export function withUrlVariable(url: string): string {
  const base = url.replace(/\{\{[^}]*\}\}?$/, '');
  return `${base}{{1}}`;
}

/**
 * A dynamic URL takes comma-separated example values: 'a, b,,c' → ['a', 'b', 'c']; nothing usable →
 * ['default_value'].
 */
export function parseUrlExamples(input: string): string[] {
  const values = input
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  return values.length > 0 ? values : [DEFAULT_URL_EXAMPLE];
}

/** The message for a button URL, or null when acceptable (http(s); dynamic only as one {{1}} at the end). */
export function buttonUrlError(url: string): string | null {
  if (url.trim().length === 0) return TEMPLATE_MESSAGES.urlRequired;
  if (url.length > TEMPLATE_LIMITS.urlMaxLength) return TEMPLATE_MESSAGES.urlTooLong;
  let concrete = url;
  if (isDynamicUrl(url) || hasIncompleteVariable(url)) {
    const markers = findVariables(url);
    const only = markers[0];
    if (
      markers.length !== 1 ||
      only === undefined ||
      only.raw !== '{{1}}' ||
      only.end !== url.length ||
      hasIncompleteVariable(url)
    )
      return TEMPLATE_MESSAGES.urlVariableAtEnd;
    concrete = `${url.slice(0, only.start)}example`;
  }
  if (
    !/^https?:\/\/[^\s/?#]+\.[^\s]*$/i.test(concrete) &&
    !/^https?:\/\/localhost(:\d+)?(\/\S*)?$/i.test(concrete)
  )
    return TEMPLATE_MESSAGES.urlInvalid;
  try {
    const parsed = new URL(concrete);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return TEMPLATE_MESSAGES.urlInvalid;
  } catch {
    return TEMPLATE_MESSAGES.urlInvalid;
  }
  return null;
}

/** The message for a phone-number button's number, or null: digits with the country code (E.164 length). */
export function buttonPhoneNumberError(phone: string): string | null {
  if (phone.trim().length === 0) return TEMPLATE_MESSAGES.phoneNumberRequired;
  if (phone.length > TEMPLATE_LIMITS.phoneNumberMaxLength) return TEMPLATE_MESSAGES.phoneNumberInvalid;
  const compact = phone.replace(/[\s().-]/g, '');
  return /^\+?[1-9]\d{6,14}$/.test(compact) ? null : TEMPLATE_MESSAGES.phoneNumberInvalid;
}
