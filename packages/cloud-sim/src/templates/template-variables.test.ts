import { describe, expect, it } from 'vitest';
import { checkPositionalVariables, variableMarkers } from './template-variables';

describe('variableMarkers', () => {
  it('finds markers with their positions, tolerating inner spaces', () => {
    expect(variableMarkers('Hi {{1}}, {{ 2 }}!')).toEqual([
      { name: '1', index: 3, end: 8 },
      { name: '2', index: 10, end: 17 },
    ]);
  });
});

describe('checkPositionalVariables', () => {
  it('counts sequential variables', () => {
    expect(checkPositionalVariables('no variables')).toEqual({ ok: true, count: 0 });
    expect(checkPositionalVariables('{{2}} then {{1}} and {{1}}')).toEqual({ ok: true, count: 2 });
  });

  it('reports gaps and non-numeric markers', () => {
    expect(checkPositionalVariables('{{1}} {{3}}')).toEqual({
      ok: false,
      problem: 'not-sequential',
      numbers: [1, 3],
    });
    expect(checkPositionalVariables('{{first_name}}')).toEqual({
      ok: false,
      problem: 'not-numeric',
      marker: 'first_name',
    });
  });
});
