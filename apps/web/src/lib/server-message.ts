/**
 * The text the server put in an error answer (`{detail, message}`, see ErrorResponse in
 * @herald/contracts), read from an RTK Query error. `keys` says which fields to try, in order.
 */
export function serverMessage(
  error: unknown,
  keys: ReadonlyArray<'detail' | 'message'> = ['detail', 'message'],
): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const { data } = error as { data: unknown };
  if (typeof data !== 'object' || data === null) return undefined;
  for (const key of keys) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}
