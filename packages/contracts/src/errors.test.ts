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

  it('carries the request id of the answer, when given', () => {
    const parsed = ErrorResponseSchema.parse({ detail: 'Internal server error', request_id: 'edge-7f3a' });
    expect(parsed.request_id).toBe('edge-7f3a');
  });

  it('rejects an error without a detail', () => {
    expect(ErrorResponseSchema.safeParse({ errors: [] }).success).toBe(false);
  });
});
