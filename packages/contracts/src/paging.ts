import { z } from 'zod';

/** A list's `page` query parameter: a whole number from 1, 1 when absent (every paged list). */
export const PageNumberSchema = z.coerce
  .number({ message: 'must be a whole number from 1' })
  .int('must be a whole number from 1')
  .min(1, 'must be a whole number from 1')
  .max(1_000_000_000, 'is too large')
  .default(1);
