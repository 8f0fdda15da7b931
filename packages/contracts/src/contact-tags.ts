import { z } from 'zod';
import { ContactListQuerySchema, TagNameSchema, TagSchema } from './contacts';

/** The most contacts one bulk tag change takes: one statement each, tested at this size. */
export const BULK_TAG_MAX_CONTACTS = 10_000;

const TagIdSchema = z.coerce
  .number({ message: 'must be a tag id' })
  .int('must be a tag id')
  .positive('must be a tag id')
  .max(Number.MAX_SAFE_INTEGER, 'must be a tag id');

const ContactIdsSchema = z
  .array(
    z
      .number({ message: 'must be contact ids' })
      .int('must be contact ids')
      .positive('must be contact ids')
      .max(Number.MAX_SAFE_INTEGER, 'must be contact ids'),
    { message: 'must be a list of contact ids' },
  )
  .min(1, 'Select at least one contact')
  .max(BULK_TAG_MAX_CONTACTS, 'At most 10,000 contacts can be changed at a time');

/** POST /recipient/tags/add/: tag the contacts, creating the tag when the account has none of that name. */
export const BulkTagAddRequestSchema = z
  .object({ contact_ids: ContactIdsSchema, tag_name: TagNameSchema })
  .meta({ id: 'BulkTagAddRequest' });

/** POST /recipient/tags/remove/: take one tag off the contacts. */
export const BulkTagRemoveRequestSchema = z
  .object({ contact_ids: ContactIdsSchema, tag_id: TagIdSchema })
  .meta({ id: 'BulkTagRemoveRequest' });

/** A bulk change's answer: the tag as it now is, and how many of the contacts gained or lost it. */
export const BulkTagResultSchema = z
  .object({ tag: TagSchema, changed: z.number().int() })
  .meta({ id: 'BulkTagResult' });

/** PUT /recipient/tags/{id}/ */
export const TagRenameRequestSchema = z.object({ name: TagNameSchema }).meta({ id: 'TagRenameRequest' });

export const TagIdParamsSchema = z.object({ id: TagIdSchema });

/**
 * GET /recipient/create/ filters beyond the spec's search: `tag_ids` ('3,7': contacts carrying any of them,
 * the audience a broadcast to those tags reaches) and `opted_out` ('true' or 'false').
 */
export const ContactFilterQuerySchema = ContactListQuerySchema.extend({
  tag_ids: z
    .string()
    .regex(/^\d{1,15}(,\d{1,15}){0,49}$/, 'must be up to 50 tag ids separated by commas')
    .transform((text) => [...new Set(text.split(',').map(Number))].filter((id) => id > 0))
    .optional(),
  opted_out: z
    .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
    .transform((text) => text === 'true')
    .optional(),
  /** Only the members of this saved segment (GET /segments/), as they are now. */
  segment_id: z.coerce
    .number({ message: 'must be a segment id' })
    .int('must be a segment id')
    .positive('must be a segment id')
    .optional(),
});

export type ContactFilterQuery = z.infer<typeof ContactFilterQuerySchema>;
export type BulkTagResult = z.infer<typeof BulkTagResultSchema>;
