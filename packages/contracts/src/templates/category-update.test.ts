import { describe, expect, it } from 'vitest';
import { parseTemplateCategoryUpdate } from './category-update';

describe('parseTemplateCategoryUpdate', () => {
  it('reads the notice a day ahead: the category to come, the current one and when', () => {
    expect(
      parseTemplateCategoryUpdate({
        message_template_id: 12345,
        message_template_name: 'offer',
        correct_category: 'marketing',
        new_category: 'UTILITY',
        category_update_timestamp: 1796083200,
      }),
    ).toEqual({
      templateId: '12345',
      coming: 'MARKETING',
      current: 'UTILITY',
      at: new Date(1796083200 * 1000),
    });
  });

  it('reads the change itself: no category to come, the new one as current', () => {
    expect(
      parseTemplateCategoryUpdate({
        message_template_id: '12345',
        previous_category: 'UTILITY',
        new_category: 'MARKETING',
      }),
    ).toEqual({ templateId: '12345', coming: null, current: 'MARKETING', at: null });
  });

  it('takes a timestamp given as a string, and ignores one that is not a time', () => {
    const at = (category_update_timestamp: unknown) =>
      parseTemplateCategoryUpdate({
        message_template_id: 1,
        correct_category: 'MARKETING',
        category_update_timestamp,
      })?.at;
    expect(at('1796083200')).toEqual(new Date(1796083200 * 1000));
    for (const bad of ['', 'soon', -5, 0, null, undefined, {}]) expect(at(bad)).toBeNull();
  });

  it('answers null without a template id, and null categories where they are not text', () => {
    for (const value of [
      null,
      undefined,
      'x',
      {},
      { message_template_id: '' },
      { message_template_id: {} },
    ]) {
      expect(parseTemplateCategoryUpdate(value)).toBeNull();
    }
    expect(
      parseTemplateCategoryUpdate({ message_template_id: 7, correct_category: 3, new_category: ' ' }),
    ).toEqual({
      templateId: '7',
      coming: null,
      current: null,
      at: null,
    });
  });
});
