/** The preview's sample value for each base customer column. */
export const PREVIEW_COLUMN_SAMPLES: Readonly<Record<string, string>> = {
  name: 'John Doe',
  whatsapp_number: '+1 555 123 4567',
  age: '30',
  gender: 'Male',
  address: '123 Main Street, Springfield',
  post_code: '10001',
  email: 'john.doe@example.com',
};

/** Body preview samples for {{1}}–{{4}} ('Customer', a phone, an address, a date). */
export const BODY_PREVIEW_SAMPLES: Readonly<Record<number, string>> = {
  1: 'Customer',
  2: '+1 555 123 4567',
  3: '123 Main Street, Springfield',
  4: 'January 15, 2025',
};

/** The preview value of a customer column: the spec's sample, or '{column} example' for other columns. */
export function previewSampleValue(column: string): string {
  return Object.hasOwn(PREVIEW_COLUMN_SAMPLES, column)
    ? (PREVIEW_COLUMN_SAMPLES[column] as string)
    : `${column} example`;
}

/**
 * The preview text: each `{{n}}` shows `values[n]` when given and non-blank, else the spec's sample for n ≤ 4,
 * else stays as written.
 */
export function renderPreviewText(
  text: string,
  values: Readonly<Record<number, string | undefined>> = {},
): string {
  return text.replace(/\{\{(\d+)\}\}/g, (raw, digits: string) => {
    const n = Number(digits);
    const given = Object.hasOwn(values, n) ? values[n] : undefined;
    if (given !== undefined && given.trim().length > 0) return given;
    return Object.hasOwn(BODY_PREVIEW_SAMPLES, n) ? (BODY_PREVIEW_SAMPLES[n] as string) : raw;
  });
}
