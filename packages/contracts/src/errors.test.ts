import { describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from './errors';

describe('ErrorResponseSchema', () => {
  it('accepts the detail-plus-field-errors shape', () => {
    const parsed = ErrorResponseSchema.parse({
      detail: 'Invalid request',
      errors: [{ field: 'body.email', message: 'Invalid email address' }],
    });
    expect(parsed.errors?.[0]?.field).toBe('body.email');
  });

  it('rejects an error without a detail', () => {
    expect(ErrorResponseSchema.safeParse({ errors: [] }).success).toBe(false);
  });
});
