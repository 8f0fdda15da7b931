import { describe, expect, it } from 'vitest';
import { formatGraphTime } from './graph-time';

describe('formatGraphTime (no raw ISO times)', () => {
  it("shows Meta's time in the user's time zone", () => {
    const raw = '2026-11-23T19:51:30+0000';
    expect(formatGraphTime(raw, 'UTC')).toBe('Nov 23, 2026, 7:51 PM');
    expect(formatGraphTime(raw, 'Europe/Berlin')).toBe('Nov 23, 2026, 8:51 PM');
    expect(formatGraphTime(raw, 'Asia/Kolkata')).toBe('Nov 24, 2026, 1:21 AM');
    expect(formatGraphTime('2026-11-23T19:51:30-0500', 'UTC')).toBe('Nov 24, 2026, 12:51 AM');
    expect(formatGraphTime('2026-11-23T19:51:30Z', 'UTC')).toBe('Nov 23, 2026, 7:51 PM');
  });

  it('keeps text that is no time as it came', () => {
    expect(formatGraphTime('soon')).toBe('soon');
  });
});
