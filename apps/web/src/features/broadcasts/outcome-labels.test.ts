import { describe, expect, it } from 'vitest';
import { OUTCOME_LABELS, outcomeInSentence } from './outcome-labels';

describe('the outcome labels', () => {
  it('name the frequency cap’s skipped recipients, alone and inside a sentence', () => {
    expect(OUTCOME_LABELS.skipped).toBe('Skipped: frequency cap');
    expect(outcomeInSentence('skipped')).toBe('skipped by the frequency cap');
  });

  it('lower-case the others inside a sentence, keeping the brand’s capitals', () => {
    expect(outcomeInSentence('expired')).toBe('expired');
    expect(outcomeInSentence('limited')).toBe('limited by WhatsApp');
    expect(outcomeInSentence('not_on_whatsapp')).toBe('not on WhatsApp');
  });
});
