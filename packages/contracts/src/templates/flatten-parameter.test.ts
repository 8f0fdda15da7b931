import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLATTENED_VARIABLE_NOTE, flattenParameter } from './flatten-parameter';

// What Meta refuses in a text parameter (132018): a new-line, a tab, or five spaces in a row.
const REFUSED_BY_META = /[\n\t]| {5}/;

describe('flattenParameter', () => {
  it('turns an address typed on several lines into one line', () => {
    expect(flattenParameter('12 High St\r\nFlat 3\n\n  London\tE1 6AN  ')).toBe(
      '12 High St Flat 3 London E1 6AN',
    );
  });

  it('makes every Unicode space and line break one space', () => {
    const spaces = '\u00A0\u1680\u2000\u2003\u200A\u2028\u2029\u202F\u205F\u3000\u0085\v\f';
    expect(flattenParameter(`a${spaces}b`)).toBe('a b');
    expect(flattenParameter('a     b')).toBe('a b');
  });

  it('removes invisible controls and format characters', () => {
    expect(flattenParameter('A\u0000d\u0007a\u001B\u0080\u009F')).toBe('Ada');
    expect(flattenParameter('\uFEFFAda\u200B Love\u00ADlace\u2060')).toBe('Ada Lovelace');
    expect(flattenParameter('\u202Eabc\u202C \u200Eabc\u200F \u2067x\u2069')).toBe('abc abc x');
    // A zero-width character between two spaces leaves one space, not two.
    expect(flattenParameter('a \u200B b')).toBe('a b');
  });

  it('keeps what changes the text as read: emoji joiners, ZWNJ, flag tags, accents', () => {
    const family = '👨\u200D👩\u200D👧';
    const persian = 'می\u200Cخواهم';
    const scotland = '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    expect(flattenParameter(`${family} ${persian} ${scotland} Zoë`)).toBe(
      `${family} ${persian} ${scotland} Zoë`,
    );
  });

  it('answers empty for a value with nothing to send', () => {
    expect(flattenParameter(' \n\t\u200B\u00A0 ')).toBe('');
  });

  it('never leaves what Meta refuses, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const flat = flattenParameter(value);
        expect(flat).not.toMatch(REFUSED_BY_META);
        expect(flat).toBe(flat.trim());
        expect(flattenParameter(flat)).toBe(flat);
      }),
      { numRuns: 300 },
    );
    // Generous: the property runs on busy CI machines too.
  }, 30_000);

  it('has a one-sentence note for the screens', () => {
    expect(FLATTENED_VARIABLE_NOTE).toMatch(/^[^.]+\.$/);
  });
});
