import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATE_CATEGORY,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_UI_TEXT,
} from './constants';
import {
  DEFAULT_CREATE_LANGUAGE,
  DEFAULT_EDIT_LANGUAGE,
  isTemplateLanguage,
  TEMPLATE_LANGUAGE_CODES,
  TEMPLATE_LANGUAGES,
  templateLanguageName,
} from './languages';

describe('template constants', () => {
  it('has the three categories, MARKETING by default', () => {
    expect(TEMPLATE_CATEGORIES).toEqual(['AUTHENTICATION', 'MARKETING', 'UTILITY']);
    expect(DEFAULT_TEMPLATE_CATEGORY).toBe('MARKETING');
  });

  it('lists 100–120 unique language codes including the spec examples', () => {
    expect(TEMPLATE_LANGUAGES.length).toBeGreaterThanOrEqual(100);
    expect(TEMPLATE_LANGUAGES.length).toBeLessThanOrEqual(120);
    expect(new Set(TEMPLATE_LANGUAGE_CODES).size).toBe(TEMPLATE_LANGUAGE_CODES.length);
    for (const code of ['en', 'en_US', 'en_GB', 'es', 'es_MX', 'fr', 'de', 'pt_BR', 'hi', 'ar', 'zh_CN']) {
      expect(isTemplateLanguage(code)).toBe(true);
    }
    for (const code of TEMPLATE_LANGUAGE_CODES) expect(code).toMatch(/^[a-z]{2,3}(_[A-Z]{2})?$/);
    expect(isTemplateLanguage('en-US')).toBe(false);
    expect(isTemplateLanguage('toString')).toBe(false);
    expect(templateLanguageName('en_US')).toBe('English (US)');
    expect(templateLanguageName('xx')).toBe('xx');
    expect([DEFAULT_CREATE_LANGUAGE, DEFAULT_EDIT_LANGUAGE]).toEqual(['en_US', 'en']);
  });

  it('has the spec limits', () => {
    expect(TEMPLATE_LIMITS).toMatchObject({
      headerTextMaxLength: 60,
      bodyMaxLength: 1024,
      footerMaxLength: 60,
      buttonTextMaxLength: 25,
      maxButtons: 10,
      maxPhoneButtons: 1,
      maxUrlButtons: 2,
      maxBodyVariables: 10,
      maxHeaderVariables: 1,
      noticeMs: 3000,
    });
  });

  it('quotes the spec strings exactly', () => {
    expect(TEMPLATE_MESSAGES).toMatchObject({
      nameInvalid: 'Only lowercase letters and underscores are allowed',
      incompleteVariable: 'Please complete the variable format: {{1}}',
      variableValueRequired: 'Variable value is required',
      customerParameterRequired: 'Customer parameter is required',
      selectField: 'Select a field',
      variablesExceedNotice: 'Variable numbers cannot exceed 10. Converting to sequential numbering...',
      variablesSequentialNotice: 'Variables must be sequential. Automatically fixing...',
      phoneButtonLimit: 'Only one phone number button allowed',
      urlButtonLimit: 'Maximum 2 URL buttons allowed',
      documentNameHint: 'Cannot contain special characters like /:*?"<>|',
      deleteConfirm: 'Are you sure you want to delete the template?',
      saved: 'Template saved successfully!',
      updated: 'Template updated successfully!',
      saveFailed: 'Error saving template:',
      updateFailed: 'Error updating template',
      loadFailed: 'Failed to load template',
    });
    expect(TEMPLATE_UI_TEXT.saving).toBe('Saving Template .....');
    expect(TEMPLATE_UI_TEXT.updating).toBe('Updating Template...');
    expect(TEMPLATE_UI_TEXT.variablesCounter(3)).toBe('Variables: 3/10');
    expect(TEMPLATE_UI_TEXT.bodyValueFor(2)).toBe('Value for {{2}} (Required)');
    expect(TEMPLATE_UI_TEXT.bodyPlaceholder).toBe(
      'Type your message here. Use {{1}}, {{2}}, etc. for variables...',
    );
    expect(TEMPLATE_UI_TEXT.headerTextPlaceholder).toBe('Header text (use {{1}} for variable)');
  });
});
