import { describe, expect, it } from 'vitest';
import { replyRate } from './broadcasts';
import { dayCount, DashboardQuerySchema, isTimeZone, percentChange } from './dashboard';

describe('dashboard contracts', () => {
  it('counts days with both ends included, across a DST change', () => {
    expect(dayCount('2026-03-01', '2026-03-01')).toBe(1);
    expect(dayCount('2026-03-28', '2026-03-30')).toBe(3);
    expect(dayCount('2026-01-01', '2026-12-31')).toBe(365);
  });

  it('gives the relative change, none against zero', () => {
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(30, 20)).toBe(50);
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(null, 4)).toBeNull();
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('names the field of a bad query', () => {
    const fieldOf = (q: Record<string, string>) => {
      const result = DashboardQuerySchema.safeParse(q);
      return result.success ? null : result.error.issues[0]!.path.join('.');
    };
    expect(fieldOf({ from: '2026-02-29' })).toBe('from');
    expect(fieldOf({ tz: 'Nowhere/Land' })).toBe('tz');
    expect(fieldOf({ from: '2026-03-02', to: '2026-03-01' })).toBe('to');
    expect(fieldOf({ from: '2025-01-01', to: '2026-01-02' })).toBe('to');
    expect(fieldOf({ from: '2025-01-01', to: '2026-01-01' })).toBeNull();
    expect(DashboardQuerySchema.parse({})).toEqual({ tz: 'UTC' });
  });

  it('rates replies against delivered, 0 when nothing was delivered', () => {
    expect(replyRate(2, 4)).toBe(50);
    expect(replyRate(1, 3)).toBe(33.3);
    expect(replyRate(0, 0)).toBe(0);
  });
});
