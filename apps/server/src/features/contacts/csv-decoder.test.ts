import { describe, expect, it } from 'vitest';
import { CsvDecoder } from './csv-decoder';

/** Feeds `bytes` to a decoder in chunks of `size` and answers the text and the encoding it chose. */
function decode(bytes: Buffer, size = bytes.length || 1) {
  const decoder = new CsvDecoder();
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(decoder.write(bytes.subarray(at, at + size)));
  out.push(decoder.end());
  return { text: Buffer.concat(out).toString('utf8'), encoding: decoder.encoding };
}

const TEXT = 'name,number\nJosé Müller,+14155550123\nZoë “Zo” Œuvre,+14155550124\n';

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

describe('CsvDecoder', () => {
  it.each([1, 2, 3, 7, 1000])('reads each encoding a spreadsheet saves in, in chunks of %i bytes', (size) => {
    expect(decode(Buffer.from(TEXT, 'utf8'), size)).toEqual({ text: TEXT, encoding: 'utf-8' });
    // The UTF-8 mark goes through: csv-parse drops it (bom: true).
    expect(decode(Buffer.from(`\uFEFF${TEXT}`, 'utf8'), size)).toEqual({
      text: `\uFEFF${TEXT}`,
      encoding: 'utf-8',
    });
    expect(decode(Buffer.from(`\uFEFF${TEXT}`, 'utf16le'), size)).toEqual({
      text: TEXT,
      encoding: 'utf-16le',
    });
    expect(decode(utf16be(`\uFEFF${TEXT}`), size)).toEqual({ text: TEXT, encoding: 'utf-16be' });
    // Windows-1252: é is E9, “ ” are 93 94, Œ is 8C (not Latin-1's control characters).
    const cp1252 = Buffer.from(
      [...TEXT].map(
        (c) => ({ é: 0xe9, ü: 0xfc, ë: 0xeb, '“': 0x93, '”': 0x94, Œ: 0x8c })[c] ?? c.charCodeAt(0),
      ),
    );
    expect(decode(cp1252, size)).toEqual({ text: TEXT, encoding: 'windows-1252' });
  });

  it('reads a Windows-1252 letter that is the last byte of the file', () => {
    const bytes = Buffer.from([0x4e, 0x2c, 0x31, 0x0a, 0x4a, 0x6f, 0x73, 0xe9]);
    expect(decode(bytes)).toEqual({ text: 'N,1\nJosé', encoding: 'windows-1252' });
    expect(decode(bytes, 1)).toEqual({ text: 'N,1\nJosé', encoding: 'windows-1252' });
    expect(decode(Buffer.from([0xe9]))).toEqual({ text: 'é', encoding: 'windows-1252' });
  });

  it('passes UTF-8 bytes through unchanged', () => {
    const bytes = Buffer.from(TEXT, 'utf8');
    const decoder = new CsvDecoder();
    expect(decoder.write(bytes)).toBe(bytes);
  });

  it('marks with U+FFFD what cannot be read once the file has shown it is UTF-8', () => {
    // 'Zoë' in UTF-8, then 'José' in Windows-1252: two encodings in one file.
    const mixed = Buffer.concat([Buffer.from('Zoë,1\n', 'utf8'), Buffer.from([0x4a, 0x6f, 0x73, 0xe9])]);
    expect(decode(mixed).text).toBe('Zoë,1\nJos\uFFFD');
    expect(decode(mixed, 1).text).toBe('Zoë,1\nJos\uFFFD');
    // A UTF-8 mark declares UTF-8, so a bad byte after it is not read as Windows-1252.
    expect(decode(Buffer.from([0xef, 0xbb, 0xbf, 0x4a, 0xe9])).text).toBe('\uFEFFJ\uFFFD');
    // A character cut off by the end of the file.
    expect(decode(Buffer.from([0xef, 0xbb, 0xbf, 0x4a, 0xc3])).text).toBe('\uFEFFJ\uFFFD');
  });
});
