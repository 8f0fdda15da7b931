import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-cells';

describe('csvCell (OWASP CSV injection)', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+33 6 12', "'+33 6 12"],
    ['+1234', "'+1234"],
    ['+447911123000+1', "'+447911123000+1"],
    ['-5', "'-5"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rCR', '"\'\rCR"'],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('neutralises %j as %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('writes a phone number in E.164 as it is, so the file imports back', () => {
    expect(csvCell('+447911123000')).toBe('+447911123000');
    expect(csvCell('+14155550123')).toBe('+14155550123');
  });

  it('quotes commas, quotes and line breaks, and writes numbers and nulls as they are', () => {
    expect(csvCell('Smith, "Jo"')).toBe('"Smith, ""Jo"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['=x', 1, null, 'y'])).toBe("'=x,1,,y\n");
  });
});
