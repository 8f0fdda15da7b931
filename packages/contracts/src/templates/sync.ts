import { z } from 'zod';

/**
 * POST /meta/templates/sync/: the account's templates re-read from Meta (status, rejected reason, quality
 * score), for when a review webhook was missed. `checked` counts Meta's templates that Herald holds;
 * `updated` those whose status, reason or quality changed.
 */
export const TemplateSyncResponseSchema = z.object({
  checked: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
});
export type TemplateSyncResponse = z.infer<typeof TemplateSyncResponseSchema>;
