import { describe, expect, it } from 'vitest';
import { BODY_PREVIEW_SAMPLES, previewSampleValue, renderPreviewText } from './preview';

describe('preview samples', () => {
  it('has a sample for each base column and "{column} example" otherwise', () => {
    for (const column of ['name', 'whatsapp_number', 'age', 'gender', 'address', 'post_code', 'email']) {
      expect(previewSampleValue(column)).not.toMatch(/example$/);
      expect(previewSampleValue(column).length).toBeGreaterThan(0);
    }
    expect(previewSampleValue('loyalty_tier')).toBe('loyalty_tier example');
    expect(previewSampleValue('toString')).toBe('toString example');
  });

  it('shows Customer for {{1}} and samples for {{2}}–{{4}}', () => {
    expect(BODY_PREVIEW_SAMPLES[1]).toBe('Customer');
    expect(renderPreviewText('Hi {{1}}, call {{2}} at {{3}} on {{4}}; {{5}}')).toBe(
      `Hi Customer, call ${BODY_PREVIEW_SAMPLES[2]} at ${BODY_PREVIEW_SAMPLES[3]} on ${BODY_PREVIEW_SAMPLES[4]}; {{5}}`,
    );
  });

  it('prefers given values', () => {
    expect(renderPreviewText('Hi {{1}} {{5}}', { 1: 'Ana', 5: 'x' })).toBe('Hi Ana x');
    expect(renderPreviewText('Hi {{1}}', { 1: '  ' })).toBe('Hi Customer');
  });
});
