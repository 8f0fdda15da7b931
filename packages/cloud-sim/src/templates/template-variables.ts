/** One `{{…}}` marker in a template text, with what is between the braces (trimmed). */
interface VariableMarker {
  name: string;
  index: number;
  end: number;
}

const MARKER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function variableMarkers(text: string): VariableMarker[] {
  return [...text.matchAll(MARKER)].map((m) => ({
    name: m[1] ?? '',
    index: m.index,
    end: m.index + m[0].length,
  }));
}

type PositionalCheck =
  | { ok: true; count: number }
  | { ok: false; problem: 'not-numeric'; marker: string }
  | { ok: false; problem: 'not-sequential'; numbers: number[] };

/**
 * Positional variables are `{{1}}`…`{{n}}`: every number from 1 to n used, none skipped (a number may
 * repeat). `count` is n, the number of sample values the template needs.
 */
export function checkPositionalVariables(text: string): PositionalCheck {
  const numbers = new Set<number>();
  for (const marker of variableMarkers(text)) {
    if (!/^[1-9]\d*$/.test(marker.name)) return { ok: false, problem: 'not-numeric', marker: marker.name };
    numbers.add(Number(marker.name));
  }
  const sorted = [...numbers].sort((a, b) => a - b);
  if (sorted.some((n, i) => n !== i + 1)) return { ok: false, problem: 'not-sequential', numbers: sorted };
  return { ok: true, count: sorted.length };
}
