import { describe, expect, it } from 'vitest';
import { DEFAULT_GRAPH_API_VERSION, GRAPH_API_VERSIONS, graphVersionWarning } from './graph-versions';

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('graphVersionWarning', () => {
  it('is silent for the default on the day it was chosen, and for a version with no end announced', () => {
    expect(graphVersionWarning(DEFAULT_GRAPH_API_VERSION, day('2026-11-23'))).toBeNull();
    expect(graphVersionWarning('v26.0', day('2030-01-01'))).toBeNull();
    // Newer than any Herald knows: Meta released it after this table, so it ends later still.
    expect(graphVersionWarning('v27.0', day('2026-11-23'))).toBeNull();
  });

  it('warns within 90 days of the end, naming the version and the date', () => {
    expect(graphVersionWarning('v21.0', day('2026-10-22'))).toBeNull(); // 91 days before
    expect(graphVersionWarning('v21.0', day('2026-11-23'))).toBe(
      'GRAPH_API_VERSION v21.0 ends on 2027-01-21 (in 59 days): set GRAPH_API_VERSION to v25.0 or newer',
    );
    expect(graphVersionWarning('v25.0', day('2028-05-01'))).toContain(
      'v25.0 ends on 2028-07-29 (in 89 days)',
    );
  });

  it('warns past the end, and for a version older than any Herald knows', () => {
    expect(graphVersionWarning('v20.0', day('2026-11-23'))).toBe(
      'GRAPH_API_VERSION v20.0 ended on 2026-09-24: Meta now answers its calls with another version; set GRAPH_API_VERSION to v25.0 or newer',
    );
    expect(graphVersionWarning('v21.0', day('2027-01-21'))).toContain('ended on 2027-01-21');
    expect(graphVersionWarning('v16.0', day('2026-11-23'))).toContain('v16.0 is no longer served by Meta');
  });

  it('knows the default and orders the table newest first', () => {
    expect(GRAPH_API_VERSIONS.find((v) => v.version === DEFAULT_GRAPH_API_VERSION)?.endsOn).toBe(
      '2028-07-29',
    );
    const numbers = GRAPH_API_VERSIONS.map((v) => Number(v.version.slice(1)));
    expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
  });
});
