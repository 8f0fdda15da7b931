import { describe, expect, it } from 'vitest';
import { CopyBuffer } from './copy-buffer';

describe('CopyBuffer', () => {
  it('keeps rows as UTF-8 bytes, grows past its first size, and starts over when cleared', () => {
    const buffer = new CopyBuffer();
    const row = `Zoë\t+14155550123\t${'é'.repeat(300_000)}\n`;
    for (let i = 0; i < 5; i += 1) buffer.appendRow(`${i}\t`, row);
    expect(buffer.rows).toBe(5);
    expect(buffer.bytes.toString('utf8')).toBe([0, 1, 2, 3, 4].map((i) => `${i}\t${row}`).join(''));
    buffer.clear();
    buffer.appendRow('a\n');
    expect(buffer.rows).toBe(1);
    expect(buffer.bytes.toString('utf8')).toBe('a\n');
  });
});
