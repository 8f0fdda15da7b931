import { describe, expect, it } from 'vitest';
import {
  BULK_TAG_MAX_CONTACTS,
  BulkTagAddRequestSchema,
  BulkTagRemoveRequestSchema,
  ContactFilterQuerySchema,
} from './contact-tags';

describe('ContactFilterQuerySchema (filters by tag and opt-out)', () => {
  it('reads tag_ids as distinct ids and opted_out as a boolean, beside the spec’s paging and search', () => {
    expect(ContactFilterQuerySchema.parse({ tag_ids: '3,7,3', opted_out: 'true', search: 'ada' })).toEqual({
      page: 1,
      page_size: 10,
      search: 'ada',
      tag_ids: [3, 7],
      opted_out: true,
    });
    expect(ContactFilterQuerySchema.parse({ opted_out: 'false' }).opted_out).toBe(false);
    expect(ContactFilterQuerySchema.parse({}).tag_ids).toBeUndefined();
  });

  it.each([['vip'], ['3,'], [',3'], ['3;7'], [Array.from({ length: 51 }, (_, i) => i + 1).join(',')]])(
    'refuses tag_ids=%j naming the field',
    (tagIds) => {
      const result = ContactFilterQuerySchema.safeParse({ tag_ids: tagIds });
      expect(result.error?.issues[0]?.path).toEqual(['tag_ids']);
    },
  );

  it('refuses an opted_out other than true or false', () => {
    expect(ContactFilterQuerySchema.safeParse({ opted_out: 'yes' }).error?.issues[0]?.path).toEqual([
      'opted_out',
    ]);
  });
});

describe('bulk tag requests', () => {
  it('take 1 to 10,000 contact ids and a trimmed tag name or a tag id', () => {
    expect(BulkTagAddRequestSchema.parse({ contact_ids: [1, 2], tag_name: ' VIP ' })).toEqual({
      contact_ids: [1, 2],
      tag_name: 'VIP',
    });
    const many = Array.from({ length: BULK_TAG_MAX_CONTACTS }, (_, i) => i + 1);
    expect(BulkTagRemoveRequestSchema.parse({ contact_ids: many, tag_id: 4 }).contact_ids).toHaveLength(
      10_000,
    );
    const tooMany = BulkTagRemoveRequestSchema.safeParse({ contact_ids: [...many, 10_001], tag_id: 4 });
    expect(tooMany.error?.issues[0]?.message).toBe('At most 10,000 contacts can be changed at a time');
    const none = BulkTagAddRequestSchema.safeParse({ contact_ids: [], tag_name: 'x' });
    expect(none.error?.issues[0]?.message).toBe('Select at least one contact');
    const blank = BulkTagAddRequestSchema.safeParse({ contact_ids: [1], tag_name: '   ' });
    expect(blank.error?.issues[0]).toMatchObject({ path: ['tag_name'], message: 'Tag name is required' });
  });
});
