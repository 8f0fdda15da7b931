import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from './constants';

/**
 * `{{n}}` variables of header and body text.
 *
 * A marker is exactly `{{digits}}`; anything else with `{{` or `}}` is an incomplete variable. A marker may be
 * repeated ('{{1}} and {{1}}'): both are the same variable, with one value, and count once towards the limit
 * of 10. Meta's positional format allows this and `example.body_text` holds one value per distinct number.
 */
export interface VariableMarker {
  /** The number as written, parsed (may be imprecise or Infinity for absurdly long digit strings). */
  n: number;
  /** The digits without leading zeros ('0' for zero): the identity of the variable. */
  key: string;
  /** The marker as written, e.g. '{{01}}'. */
  raw: string;
  start: number;
  end: number;
}

const MARKER = /\{\{(\d+)\}\}/g;

function keyOf(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** The markers of a text, in order of appearance (repeats included). */
export function findVariables(text: string): VariableMarker[] {
  const found: VariableMarker[] = [];
  for (const m of text.matchAll(MARKER)) {
    const digits = m[1] ?? '';
    found.push({
      n: Number(digits),
      key: keyOf(digits),
      raw: m[0],
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return found;
}

/** The distinct variable numbers of a text, in order of first appearance. */
export function distinctVariables(text: string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  for (const m of findVariables(text)) {
    if (seen.has(m.key)) continue;
    seen.add(m.key);
    out.push(m.n);
  }
  return out;
}

/** How many distinct variables a text has (the 'Variables: n/10' counter). */
export function countVariables(text: string): number {
  return distinctVariables(text).length;
}

/**
 * True when the text has the start or end of a marker that is not a complete `{{n}}`: '{{1', '{{}}', '{{a}}',
 * '{{ 1 }}', '1}}'. The message: 'Please complete the variable format: {{1}}'.
 */
export function hasIncompleteVariable(text: string): boolean {
  // Complete markers become a brace-free character, so no new '{{' or '}}' can form across them.
  return /\{\{|\}\}/.test(text.replace(MARKER, '\u0000'));
}

/** Every marker removed, repeatedly, until none is left (a removal may join '{{' and '5}}' into a new one). */
export function stripVariables(text: string): string {
  let current = text;
  for (;;) {
    const next = current.replace(MARKER, '');
    if (next === current) return current;
    current = next;
  }
}

export type RenumberNotice =
  typeof TEMPLATE_MESSAGES.variablesExceedNotice | typeof TEMPLATE_MESSAGES.variablesSequentialNotice;

export interface RenumberResult {
  text: string;
  /** The spec's notice to show for 3 s, or null when the text was already in order. */
  notice: RenumberNotice | null;
  /**
   * Where each old variable went (`to` null: dropped), in order of first appearance, so the form can move the
   * values and dynamic choices of its rows along with their markers. Empty when nothing changed.
   */
  moves: Array<{ from: number; to: number | null }>;
}

/** True when the distinct numbers are exactly 1..k (any order), k ≤ 10, written without leading zeros. */
function isCanonical(markers: VariableMarker[]): boolean {
  const keys = new Set<string>();
  for (const m of markers) {
    if (m.raw !== `{{${m.key}}}`) return false;
    keys.add(m.key);
  }
  if (keys.size > TEMPLATE_LIMITS.maxBodyVariables) return false;
  for (let i = 1; i <= keys.size; i++) if (!keys.has(String(i))) return false;
  return true;
}

function renumberPass(text: string): { text: string; moves: RenumberResult['moves'] } {
  const markers = findVariables(text);
  if (isCanonical(markers)) return { text, moves: [] };
  const target = new Map<string, number | null>();
  const moves: RenumberResult['moves'] = [];
  for (const m of markers) {
    if (target.has(m.key)) continue;
    const to = target.size < TEMPLATE_LIMITS.maxBodyVariables ? target.size + 1 : null;
    target.set(m.key, to);
    moves.push({ from: m.n, to });
  }
  const out = text.replace(MARKER, (_raw, digits: string) => {
    const to = target.get(keyOf(digits));
    return to == null ? '' : `{{${to}}}`;
  });
  return { text: out, moves };
}

/**
 * Body text: when the distinct numbers are not exactly 1..k with k ≤ 10, every variable is renumbered in
 * order of first appearance; the 11th and later distinct variables are dropped (their markers removed, the
 * text around them kept). A text already numbered 1..k is left alone even if its markers appear out of order
 * ('{{2}} then {{1}}'), so reordering sentences never swaps the values the user typed.
 *
 * Notice: 'cannot exceed 10' when a number above 10 (or an 11th variable) was present, else 'must be
 * sequential' when anything changed, else null. Idempotent; the text outside the markers is unchanged.
 */
export function renumberBodyVariables(text: string): RenumberResult {
  const markers = findVariables(text);
  const first = renumberPass(text);
  if (first.text === text) return { text, notice: null, moves: [] };
  // Dropping a marker can join its neighbours into a new one ('{{' + dropped + '5}}'); repeat until stable.
  // Each further change drops at least one marker (four braces), so this ends.
  let current = first.text;
  for (;;) {
    const next = renumberPass(current).text;
    if (next === current) break;
    current = next;
  }
  const exceeded =
    markers.some((m) => m.n > TEMPLATE_LIMITS.maxBodyVariables) ||
    new Set(markers.map((m) => m.key)).size > TEMPLATE_LIMITS.maxBodyVariables;
  return {
    text: current,
    notice: exceeded ? TEMPLATE_MESSAGES.variablesExceedNotice : TEMPLATE_MESSAGES.variablesSequentialNotice,
    moves: first.moves,
  };
}

/**
 * Body variables: deleting variable n removes its markers and renumbers the later ones down by one
 * ('{{1}} {{2}} {{3}}' minus 2 → '{{1}}  {{2}}'). Other text is kept.
 */
export function deleteBodyVariable(text: string, n: number): string {
  return text.replace(MARKER, (raw, digits: string) => {
    const m = Number(digits);
    if (m === n) return '';
    if (m > n) return `{{${m - 1}}}`;
    return raw;
  });
}

/**
 * 'Add Variable' appends the next marker ({{count + 1}}); at 10 variables ('Max Variables') the text is
 * returned unchanged. Expects a renumbered text.
 */
export function appendBodyVariable(text: string): string {
  const count = countVariables(text);
  if (count >= TEMPLATE_LIMITS.maxBodyVariables) return text;
  return `${text}{{${count + 1}}}`;
}

/**
 * Header variable: any `{{n}}` is rewritten to `{{1}}` (the spec names 2–9; 0, 10 and above are
 * treated alike so the header always ends with at most one variable) and only the first marker is kept; later
 * ones are removed, the text around them kept.
 */
export function normalizeHeaderText(text: string): string {
  let current = text;
  for (;;) {
    let kept = false;
    const next = current.replace(MARKER, () => {
      if (kept) return '';
      kept = true;
      return '{{1}}';
    });
    if (next === current) return current;
    current = next;
  }
}

/** Adding a header variable appends {{1}} when the header has none. */
export function addHeaderVariable(text: string): string {
  return findVariables(text).length > 0 ? text : `${text}{{1}}`;
}

/** Removing the header variable strips its marker. */
export function removeHeaderVariable(text: string): string {
  return stripVariables(text);
}
