import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-cells';

describe('csvCell (OWASP CSV injection)', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+33 6 12', "'+33 6 12"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rCR', '"\'\rCR"'],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('neutralises %j as %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('quotes commas, quotes and line breaks, and writes numbers and nulls as they are', () => {
    expect(csvCell('Smith, "Jo"')).toBe('"Smith, ""Jo"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['=x', 1, null, 'y'])).toBe("'=x,1,,y\n");
  });
});
