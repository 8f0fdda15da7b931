import { describe, expect, it } from 'vitest';
import { normalizeTemplateName, templateNameError } from './name';

describe('normalizeTemplateName', () => {
  it('lower-cases and turns whitespace into underscores, as typed', () => {
    expect(normalizeTemplateName('Summer Sale')).toBe('summer_sale');
    expect(normalizeTemplateName('Order\tUpdate  Now')).toBe('order_update__now');
    expect(normalizeTemplateName('welcome_')).toBe('welcome_');
  });

  it('keeps other characters so the rule can name them', () => {
    expect(normalizeTemplateName('Promo-2024!')).toBe('promo-2024!');
  });
});

describe('templateNameError', () => {
  it('accepts lowercase letters and underscores', () => {
    expect(templateNameError('summer_sale')).toBeNull();
    expect(templateNameError('_')).toBeNull();
  });

  it('refuses digits, capitals, dashes and spaces with the spec message', () => {
    for (const name of ['promo2024', 'Summer', 'summer-sale', 'summer sale', 'café']) {
      expect(templateNameError(name)).toBe('Only lowercase letters and underscores are allowed');
    }
  });

  it('requires a name and caps it at 512 characters', () => {
    expect(templateNameError('')).toBe('Template name is required');
    expect(templateNameError('a'.repeat(512))).toBeNull();
    expect(templateNameError('a'.repeat(513))).toBe('Template name cannot exceed 512 characters');
  });
});
