export type FieldEntry = { field: string; message: string };

/**
 * The `errors: [{field, message}]` of an RTK Query error's body, the malformed entries left out, each with its
 * whole path ('definition.groups.0.rules.1.value'), for forms whose fields repeat in lists.
 */
export function fieldErrorEntries(error: unknown): FieldEntry[] {
  const data = (error as { data?: { errors?: unknown } } | null)?.data;
  if (!Array.isArray(data?.errors)) return [];
  return (data.errors as Array<{ field?: unknown; message?: unknown }>).filter(
    (entry): entry is FieldEntry => typeof entry.field === 'string' && typeof entry.message === 'string',
  );
}

/**
 * The per-field messages of an RTK Query error whose body has `errors: [{field, message}]`, keyed by the
 * field's last path segment ('body.whatsapp_number' → 'whatsapp_number').
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fieldErrorEntries(error)) {
    const name = entry.field.split('.').pop() ?? entry.field;
    found[name] ??= entry.message;
  }
  return found;
}

/**
 * The messages of the fields inside one object of the request, keyed by the field's name in it:
 * ('follow_up.after_hours' or 'body.follow_up.after_hours', 'follow_up') → 'after_hours'. Kept apart from
 * fieldErrors, whose last segment would mix them with the request's own fields of the same name.
 */
export function nestedFieldErrors(error: unknown, parent: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fieldErrorEntries(error)) {
    const path = entry.field.split('.');
    const at = path.indexOf(parent);
    const name = at >= 0 ? path[at + 1] : undefined;
    if (name !== undefined) found[name] ??= entry.message;
  }
  return found;
}
