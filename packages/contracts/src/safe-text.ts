/**
 * The one check every piece of client text passes before anything uses it (no 5xx from any input).
 *
 * Postgres cannot hold U+0000 in `text` or `jsonb` (it answers an error, which used to surface as a 500), and a
 * lone UTF-16 surrogate is not Unicode at all: `jsonb` refuses its `\ud800` escape and UTF-8 encoding silently
 * turns it into U+FFFD. Such text is refused up front, with a 400 that names the field, instead of failing deep
 * inside a route. Values nested absurdly deep are refused too: validators and serialisers recurse, so a
 * 100,000-level array would overflow their stacks; this walk itself is iterative.
 */

/** What a refused text breaks, in the words every answer uses after the field's name. */
export const UNSAFE_TEXT_RULE = 'must not contain a NUL character or an invalid Unicode character';

/** Deeper than any request Herald reads (a template payload is about 5 levels). */
export const MAX_INPUT_DEPTH = 32;

// U+0000, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this refuses.
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_TEXT_ALL = new RegExp(UNSAFE_TEXT.source, 'g');
const SHOWN_KEY_LENGTH = 64;

/** One refused value: `field` is its dotted path (`body.components.0.text`), and the message names it. */
export interface UnsafeInput {
  field: string;
  message: string;
}

/** True when the text holds no U+0000 and no lone surrogate. */
export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/** A key as it can be shown in a field path: refused characters escaped (`a\u0000b`), long keys cut. */
function shownKey(key: string): string {
  const escaped = key.replace(
    UNSAFE_TEXT_ALL,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > SHOWN_KEY_LENGTH ? `${escaped.slice(0, SHOWN_KEY_LENGTH)}…` : escaped;
}

function joinPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function walkable(value: unknown): value is Record<string, unknown> | unknown[] {
  // Buffers and typed arrays are bytes, not text (a webhook's raw body): they are not walked.
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * The first string (value or object key) in `value` that holds U+0000 or a lone surrogate, or the first place
 * nested deeper than MAX_INPUT_DEPTH; null when there is none. `path` names `value` itself (`body`, `tag`);
 * what is inside is named below it (`body.contacts.0.name`). Arrays and objects are walked, keys included.
 */
export function findUnsafeInput(value: unknown, path: string): UnsafeInput | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const field = item.path || 'value';
    if (typeof item.value === 'string') {
      if (!isSafeText(item.value)) return { field, message: `${field} ${UNSAFE_TEXT_RULE}` };
      continue;
    }
    if (!walkable(item.value)) continue;
    if (item.depth >= MAX_INPUT_DEPTH) {
      return { field, message: `${field} is nested too deeply (at most ${MAX_INPUT_DEPTH} levels)` };
    }
    const entries = Array.isArray(item.value)
      ? item.value.map((element, index) => [String(index), element] as const)
      : Object.entries(item.value);
    for (const [key] of entries) {
      if (!isSafeText(key)) {
        const keyField = joinPath(item.path, shownKey(key));
        return { field: keyField, message: `${keyField} (a key) ${UNSAFE_TEXT_RULE}` };
      }
    }
    // Pushed in reverse so the walk, and so the field reported, follows the order of the input.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, element] = entries[i]!;
      stack.push({ value: element, path: joinPath(item.path, shownKey(key)), depth: item.depth + 1 });
    }
  }
  return null;
}
