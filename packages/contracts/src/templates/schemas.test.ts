import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  TemplateDeleteRequestSchema,
  TemplateDetailSchema,
  TemplateListQuerySchema,
  TemplateListResponseSchema,
  TemplatePayloadSchema,
} from './schemas';

describe('template schemas', () => {
  it('parses the list answer of the issue', () => {
    const answer = {
      count: 1,
      currentPage: 1,
      next: null,
      previous: null,
      results: [
        {
          id: 7,
          template_id: '594425479261596',
          template_name: 'summer_sale',
          category: 'MARKETING',
          language_code: 'en_US',
          status: 'REJECTED',
          rejected_reason: 'INVALID_FORMAT',
          last_updated_time: '2025-06-01T10:00:00.000Z',
          quality_score: { score: 'UNKNOWN', date: 1748772000 },
          components: ['Header (image)', 'Body', 'Buttons (2)'],
        },
      ],
    };
    expect(TemplateListResponseSchema.parse(answer)).toEqual(answer);
  });

  it('defaults and bounds the list query', () => {
    expect(TemplateListQuerySchema.parse({})).toEqual({ page: 1, page_size: 10, sort: 'latest' });
    expect(
      TemplateListQuerySchema.parse({ page: '2', page_size: '25', search: ' sale ', sort: 'name' }),
    ).toEqual({
      page: 2,
      page_size: 25,
      search: 'sale',
      sort: 'name',
    });
    expect(TemplateListQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(TemplateListQuerySchema.safeParse({ sort: 'newest' }).success).toBe(false);
  });

  it('parses the detail answer, keeping unknown component fields', () => {
    const detail = TemplateDetailSchema.parse({
      name: 'summer_sale',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hi {{1}}', example: { body_text: [['Ana']] } }],
      dynamic_variables: { header_variables: [{ '1': 'name' }] },
      media_url: null,
    });
    expect(detail.components[0]).toHaveProperty('example');
  });

  it('refuses a payload with an unknown button type or language', () => {
    const base = { name: 'a', language: 'en_US', category: 'UTILITY', components: [] };
    expect(TemplatePayloadSchema.safeParse(base).success).toBe(true);
    expect(TemplatePayloadSchema.safeParse({ ...base, language: 'xx' }).success).toBe(false);
    expect(
      TemplatePayloadSchema.safeParse({
        ...base,
        components: [{ type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'x' }] }],
      }).success,
    ).toBe(false);
  });

  it('requires both delete fields', () => {
    expect(TemplateDeleteRequestSchema.safeParse({ template_id: '1', template_name: 'a' }).success).toBe(
      true,
    );
    expect(TemplateDeleteRequestSchema.safeParse({ template_id: '1' }).success).toBe(false);
  });

  it('converts to JSON Schema for the OpenAPI document', () => {
    for (const schema of [TemplatePayloadSchema, TemplateListResponseSchema, TemplateDetailSchema]) {
      expect(() => z.toJSONSchema(schema, { io: 'input' })).not.toThrow();
      expect(() => z.toJSONSchema(schema)).not.toThrow();
    }
  });
});
