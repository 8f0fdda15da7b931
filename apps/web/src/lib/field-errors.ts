/**
 * The per-field messages of an RTK Query error whose body has `errors: [{field, message}]`, keyed by the
 * field's last path segment ('body.whatsapp_number' → 'whatsapp_number').
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const data = (error as { data?: { errors?: unknown } } | null)?.data;
  const found: Record<string, string> = {};
  if (!Array.isArray(data?.errors)) return found;
  for (const entry of data.errors as Array<{ field?: unknown; message?: unknown }>) {
    if (typeof entry.field !== 'string' || typeof entry.message !== 'string') continue;
    const name = entry.field.split('.').pop() ?? entry.field;
    found[name] ??= entry.message;
  }
  return found;
}
