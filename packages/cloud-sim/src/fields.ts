/**
 * Graph's `fields=` parameter: answer only the named fields, but always the id, as Graph does.
 * Unknown field names are ignored rather than rejected (Graph rejects them; sandbox callers are ours).
 */
export function pickFields<T extends { id: string }>(
  object: T,
  fields: string | undefined,
): Partial<T> & { id: string } {
  if (fields === undefined || fields.trim() === '') return object;
  const wanted = new Set(
    fields
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean),
  );
  const picked: Partial<T> & { id: string } = { id: object.id } as Partial<T> & { id: string };
  for (const key of Object.keys(object) as (keyof T)[]) {
    if (wanted.has(String(key))) picked[key] = object[key];
  }
  return picked;
}
