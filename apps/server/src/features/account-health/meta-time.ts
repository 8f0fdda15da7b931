/**
 * A time Meta wrote as a Unix time (seconds, as a number or digits), an ISO 8601 text (also with a "+0000"
 * offset, which JavaScript's parser refuses) or a date in words; as ISO 8601, or null when unreadable.
 */
export function metaTime(value: unknown): string | null {
  let ms: number;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
    const n = Number(value);
    ms = n > 1e12 ? n : n * 1000;
  } else if (typeof value === 'string') {
    ms = Date.parse(value.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  } else {
    return null;
  }
  return Number.isFinite(ms) && !Number.isNaN(new Date(ms).getTime()) ? new Date(ms).toISOString() : null;
}
