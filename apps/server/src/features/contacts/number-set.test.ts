import { describe, expect, it } from 'vitest';
import { NumberLineReader, numberKey, NumberSet } from './number-set';

describe('NumberSet', () => {
  it('keeps a mark per number through growth, and answers 0 for numbers it lacks', () => {
    const set = new NumberSet(4);
    const keys = Array.from({ length: 10_000 }, (_, i) => 14_155_550_000 + i * 7_919);
    keys.forEach((key, i) => set.set(key, (i % 3) + 1));
    expect(set.count).toBe(10_000);
    keys.forEach((key, i) => expect(set.get(key)).toBe((i % 3) + 1));
    expect(set.get(14_155_550_001)).toBe(0);
    set.set(keys[5]!, 9);
    expect(set.get(keys[5]!)).toBe(9);
    expect(set.count).toBe(10_000);
  });

  it('tells apart 15-digit numbers that differ only in their last digit or only above 32 bits', () => {
    const set = new NumberSet();
    set.set(999_999_999_999_999, 1);
    set.set(999_999_999_999_998, 2);
    set.set(4_294_967_296 + 5, 3);
    expect(set.get(999_999_999_999_999)).toBe(1);
    expect(set.get(999_999_999_999_998)).toBe(2);
    expect(set.get(4_294_967_296 + 5)).toBe(3);
    expect(set.get(5)).toBe(0);
  });
});

describe('numberKey and NumberLineReader', () => {
  it('reads E.164 lines split anywhere across chunks to the same keys as numberKey', () => {
    const set = new NumberSet();
    const reader = new NumberLineReader(set, 1);
    const text = '+14155550123\n+447911123456\n+919876543210\n';
    for (const part of [text.slice(0, 5), text.slice(5, 20), text.slice(20)]) reader.push(Buffer.from(part));
    expect(set.count).toBe(3);
    for (const number of ['+14155550123', '+447911123456', '+919876543210']) {
      expect(set.get(numberKey(number))).toBe(1);
    }
    expect(numberKey('+14155550123')).toBe(14_155_550_123);
  });
});
