import { describe, expect, it } from 'vitest';
import { templateLifecycleNotes } from './lifecycle-notes';

describe('templateLifecycleNotes', () => {
  const said = {
    locked: true,
    flagged_at: '2026-11-20T00:00:00.000Z',
    pending_category: { category: 'MARKETING', effective_at: '2026-12-01T23:30:00.000Z' },
  };

  it('lists a lock, a flag and a coming category with its UTC date', () => {
    expect(templateLifecycleNotes(said)).toEqual([
      'Locked by Meta: can be sent, cannot be edited',
      'Flagged by Meta: at risk of being disabled',
      'Category changes to MARKETING on Dec 1, 2026',
    ]);
  });

  it('for sending leaves out the lock and says what a coming category changes', () => {
    expect(templateLifecycleNotes(said, { sending: true })).toEqual([
      'Flagged by Meta: at risk of being disabled',
      'Category changes to MARKETING on Dec 1, 2026: messages sent from then are charged at its rates',
    ]);
  });

  it("says 'soon' without a date, and nothing for a template Meta said nothing more of", () => {
    expect(templateLifecycleNotes({ pending_category: { category: 'UTILITY', effective_at: null } })).toEqual(
      ['Category changes to UTILITY soon'],
    );
    expect(templateLifecycleNotes({})).toEqual([]);
  });
});
