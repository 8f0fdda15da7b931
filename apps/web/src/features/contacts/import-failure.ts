import { IMPORT_MESSAGES } from '@herald/contracts';

/** What a failed import shows: the bad rows (with the server's summary, if any), or one message. */
export type ImportFailure = { rows: string[]; summary: string | null } | { message: string };

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value : null;
}

/**
 * A list of bad rows in the answer's `message.errors` gives one line per entry,
 * 'Row {row}: {errors joined by comma}'; otherwise the answer's message (or detail), else
 * 'Error importing contacts'.
 */
export function importFailure(data: unknown): ImportFailure {
  if (typeof data !== 'object' || data === null) return { message: IMPORT_MESSAGES.fallback };
  const { message, detail } = data as { message?: unknown; detail?: unknown };
  const entries = (message as { errors?: unknown } | null | undefined)?.errors;
  if (Array.isArray(entries) && entries.length > 0) {
    const rows = entries.map((entry: { row?: unknown; errors?: unknown }) => {
      const errors = Array.isArray(entry.errors) ? entry.errors.map(String) : [String(entry.errors ?? '')];
      return `Row ${String(entry.row)}: ${errors.join(', ')}`;
    });
    return { rows, summary: text(detail) };
  }
  return { message: text(message) ?? text(detail) ?? IMPORT_MESSAGES.fallback };
}
