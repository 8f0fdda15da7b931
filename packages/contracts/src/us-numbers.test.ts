import { describe, expect, it } from 'vitest';
import { isUsNumber, isUsPrefix } from './us-numbers';

describe('isUsNumber', () => {
  it.each([
    ['+14155550100', true],
    ['+17875550100', true], // Puerto Rico: a US area code
    ['+14165550100', false], // Toronto
    ['+18765550100', false], // Jamaica
    ['+447700900123', false],
    ['+1415555010', false], // too short for a North American number
  ])('%s → %s', (number, expected) => {
    expect(isUsNumber(number)).toBe(expected);
  });
});

describe('isUsPrefix', () => {
  it.each([
    ['+1415', true],
    ['+1787', true],
    ['+1416', false],
    ['+1876', false],
    ['+4477', false],
    ['+141', false],
  ])('%s → %s', (prefix, expected) => {
    expect(isUsPrefix(prefix)).toBe(expected);
  });
});
