/**
 * Template parameters Meta refuses, and the one rule that keeps Herald from sending them.
 *
 * Meta answers a send whose text parameter holds a new-line or a tab, or more than four consecutive spaces,
 * with (#132018) "Param text cannot have new-line/tab characters or more than 4 consecutive spaces". Contact
 * values routinely carry them (an address typed on three lines, a name pasted with a tab), so every value is
 * flattened before it is sent, and the web tells the user so beside a variable bound to a contact column.
 *
 * No length is cut here: Meta documents no per-parameter limit for text parameters of marketing and utility
 * templates, only the hydrated text's (132005), which Meta itself reports.
 */

/** Shown beside a variable bound to a contact column (template editor, New broadcast). */
export const FLATTENED_VARIABLE_NOTE =
  'Line breaks, tabs and repeated spaces in this column are sent as single spaces: WhatsApp refuses them in variables.';

// Every Unicode space and line break (JS `\s`: tab, new-line, NBSP, U+2000–U+200A, U+2028/9, U+3000…) and
// NEL, which `\s` leaves out. U+FEFF is in `\s` but is a zero-width mark, so it is removed below instead.
const WHITESPACE = /(?!\uFEFF)[\s\u0085]/gu;

// What is left of the controls and format characters after the spaces: C0/C1 controls, zero-width space,
// word joiner, BOM, bidi marks, embeddings and isolates, soft hyphen, and lone surrogates. ZWJ and ZWNJ
// stay (they join emoji sequences and shape Persian and Indic words), as do the tag characters of
// subdivision flags: removing them would change what the recipient reads.
const INVISIBLE = /(?!\u200C|\u200D|[\u{E0020}-\u{E007F}])[\p{Cc}\p{Cf}\p{Cs}]/gu;

/**
 * A value as Herald sends it in a template parameter: each run of whitespace one space, invisible control
 * and format characters removed, trimmed. Idempotent. An empty result means there is nothing to send.
 */
export function flattenParameter(value: string): string {
  return value.replace(WHITESPACE, ' ').replace(INVISIBLE, '').replace(/ {2,}/g, ' ').trim();
}
