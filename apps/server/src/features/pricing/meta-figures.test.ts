import { describe, expect, it } from 'vitest';
import { analyticsRange, sumPoints } from './meta-figures';

// Decision 053: the range Herald asks Meta for, and Meta's points summed.
const at = (iso: string) => new Date(iso);
const unix = (iso: string) => Date.parse(iso) / 1000;

describe('analyticsRange', () => {
  it('widens a range of up to 30 days to whole half hours', () => {
    expect(analyticsRange(at('2026-11-25T10:12:30Z'), at('2026-11-25T10:47:01Z'))).toEqual({
      start: unix('2026-11-25T10:00:00Z'),
      end: unix('2026-11-25T11:00:00Z'),
      granularity: 'HALF_HOUR',
    });
  });

  it('asks by whole UTC days beyond 30 days', () => {
    expect(analyticsRange(at('2026-10-01T10:00:00Z'), at('2026-11-02T09:00:00Z'))).toEqual({
      start: unix('2026-10-01T00:00:00Z'),
      end: unix('2026-11-03T00:00:00Z'),
      granularity: 'DAILY',
    });
  });

  it('never asks an empty range when the first and last moments are the same', () => {
    const range = analyticsRange(at('2026-11-25T10:30:00Z'), at('2026-11-25T10:30:00Z'));
    expect(range.end - range.start).toBe(1800);
  });
});

describe('sumPoints', () => {
  it('adds every point’s volume and cost', () => {
    const answer = {
      pricing_analytics: {
        data: [
          {
            data_points: [
              { volume: 2, cost: 0.0214 },
              { volume: 1, cost: 0.0529 },
            ],
          },
        ],
      },
    };
    expect(sumPoints(answer)).toEqual({ volume: 3, cost: 0.0743 });
  });

  it('gives no cost when Meta gave none for messages it counted (billed through a partner)', () => {
    expect(sumPoints({ pricing_analytics: { data: [{ data_points: [{ volume: 4 }] }] } })).toEqual({
      volume: 4,
      cost: null,
    });
    expect(sumPoints({ pricing_analytics: { data: [{ data_points: [] }] } })).toEqual({ volume: 0, cost: 0 });
  });
});
