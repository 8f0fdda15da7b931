import { describe, expect, it } from 'vitest';
import {
  failureReason,
  HERALD_FAILURE_REASONS,
  META_FAILURE_REASONS,
  UNKNOWN_CODE_REASON,
} from './failure-reasons';

// The Cloud API error codes a broadcast meets, as Meta documents them.
const CODES = [
  131049, 131026, 131050, 131047, 131048, 131056, 130429, 132000, 132001, 132005, 132007, 132012, 132015,
  132016, 132018, 131000, 190, 368, 100,
];

describe('failure reasons', () => {
  it('explains every code a broadcast meets in plain words with something to do', () => {
    for (const code of CODES) {
      const text = failureReason(code, 'Meta’s own title');
      expect(text, String(code)).toBe(META_FAILURE_REASONS[code]);
      expect(text.title.length).toBeGreaterThan(3);
      expect(text.explanation).toMatch(/\.$/);
      expect(text.action).toMatch(/\.$/);
      // Plain words: no error number or jargon in the explanation itself.
      expect(text.explanation).not.toMatch(/#?\d{3,}/);
    }
    expect(Object.keys(META_FAILURE_REASONS).map(Number).sort()).toEqual([...CODES].sort());
  });

  it('names the two outcomes that are not Herald’s failures as the history does', () => {
    expect(failureReason(131049, null).title).toBe('Limited by WhatsApp');
    expect(failureReason(131049, null).action).toContain('24 hours');
    expect(failureReason(131026, null).title).toBe('Not on WhatsApp');
    expect(failureReason(131026, null).action).toContain('does not try again');
  });

  it('keeps Meta’s title for a code it does not know, with a general explanation', () => {
    const text = failureReason(135000, '(#135000) Generic user error');
    expect(text.title).toBe('(#135000) Generic user error');
    expect(text.explanation).toBe(UNKNOWN_CODE_REASON.explanation);
    expect(failureReason(135000, null).title).toBe('Error 135000');
  });

  it.each([
    ['The contact opted out after the broadcast started; not sent', HERALD_FAILURE_REASONS.optedOut],
    ['The contact has no email for {{2}}', HERALD_FAILURE_REASONS.missingValue],
    ['No value for {{1}}', HERALD_FAILURE_REASONS.missingValue],
    [
      'No delivery status arrived from WhatsApp within 1 hour; the message may or may not have been delivered.',
      HERALD_FAILURE_REASONS.unknownOutcome,
    ],
    ['The template no longer exists', HERALD_FAILURE_REASONS.notSent],
    [null, HERALD_FAILURE_REASONS.notSent],
  ])('tells Herald’s own reason "%s" by its title', (title, expected) => {
    expect(failureReason(null, title)).toBe(expected);
  });
});
