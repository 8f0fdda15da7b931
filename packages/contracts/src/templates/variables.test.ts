import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addHeaderVariable,
  appendBodyVariable,
  countVariables,
  deleteBodyVariable,
  distinctVariables,
  findVariables,
  hasIncompleteVariable,
  normalizeHeaderText,
  removeHeaderVariable,
  renumberBodyVariables,
  stripVariables,
} from './variables';

const EXCEED = 'Variable numbers cannot exceed 10. Converting to sequential numbering...';
const SEQUENTIAL = 'Variables must be sequential. Automatically fixing...';

describe('findVariables', () => {
  it('lists markers in order of appearance, repeats included', () => {
    const found = findVariables('Hi {{2}}, {{1}} and {{2}} again');
    expect(found.map((m) => m.n)).toEqual([2, 1, 2]);
    expect(found[0]).toMatchObject({ raw: '{{2}}', start: 3, end: 8, key: '2' });
  });

  it('reads only exact {{digits}} markers', () => {
    expect(findVariables('{{ 1 }} {{a}} {{}} {1} {{-1}}')).toEqual([]);
    expect(findVariables('{{{1}}}').map((m) => m.raw)).toEqual(['{{1}}']);
    expect(findVariables('{{007}}')[0]).toMatchObject({ n: 7, key: '7' });
  });

  it('counts distinct variables', () => {
    expect(distinctVariables('{{3}} {{1}} {{3}}')).toEqual([3, 1]);
    expect(countVariables('{{1}} and {{1}}')).toBe(1);
    expect(countVariables('no variables')).toBe(0);
  });
});

describe('hasIncompleteVariable', () => {
  it.each(['{{1', '{{}}', 'Hello {{', '{{a}}', '{{ 1 }}', '1}}', 'x }} y', '{{1}} and {{2'])(
    'flags %j',
    (t) => {
      expect(hasIncompleteVariable(t)).toBe(true);
    },
  );

  it.each(['', 'Hello', '{{1}}', 'Hi {{1}}, see {{2}}', '{ single }', '{{{1}}}'])('accepts %j', (t) => {
    expect(hasIncompleteVariable(t)).toBe(false);
  });
});

describe('renumberBodyVariables', () => {
  it('leaves sequential text alone', () => {
    expect(renumberBodyVariables('Hi {{1}}, your order {{2}} ships {{3}}')).toEqual({
      text: 'Hi {{1}}, your order {{2}} ships {{3}}',
      notice: null,
      moves: [],
    });
    expect(renumberBodyVariables('plain text').notice).toBeNull();
  });

  it('keeps 1..k in any order of appearance (no swapping of typed values)', () => {
    expect(renumberBodyVariables('{{2}} then {{1}}')).toMatchObject({
      text: '{{2}} then {{1}}',
      notice: null,
    });
  });

  it('renumbers gaps in order of appearance with the sequential notice', () => {
    expect(renumberBodyVariables('Hi {{1}}, your code {{3}}')).toEqual({
      text: 'Hi {{1}}, your code {{2}}',
      notice: SEQUENTIAL,
      moves: [
        { from: 1, to: 1 },
        { from: 3, to: 2 },
      ],
    });
    expect(renumberBodyVariables('{{2}}').text).toBe('{{1}}');
    expect(renumberBodyVariables('{{3}} a {{1}}').text).toBe('{{1}} a {{2}}');
    expect(renumberBodyVariables('{{0}}')).toMatchObject({ text: '{{1}}', notice: SEQUENTIAL });
    expect(renumberBodyVariables('{{01}}')).toMatchObject({ text: '{{1}}', notice: SEQUENTIAL });
  });

  it('renumbers numbers above 10 with the exceed notice', () => {
    expect(renumberBodyVariables('{{1}} {{2}} {{11}}')).toMatchObject({
      text: '{{1}} {{2}} {{3}}',
      notice: EXCEED,
    });
    expect(renumberBodyVariables('Dear {{15}}')).toMatchObject({ text: 'Dear {{1}}', notice: EXCEED });
  });

  it('keeps repeated markers as one variable', () => {
    expect(renumberBodyVariables('{{3}} and {{3}} and {{5}}')).toMatchObject({
      text: '{{1}} and {{1}} and {{2}}',
      notice: SEQUENTIAL,
    });
  });

  it('drops the 11th and later distinct variables, keeping the text around them', () => {
    const input = Array.from({ length: 12 }, (_, i) => `v${i + 1}={{${i + 1}}}`).join(' ');
    const result = renumberBodyVariables(input);
    expect(result.notice).toBe(EXCEED);
    expect(result.text).toBe(
      Array.from({ length: 12 }, (_, i) => `v${i + 1}=${i < 10 ? `{{${i + 1}}}` : ''}`).join(' '),
    );
    expect(result.moves.slice(10)).toEqual([
      { from: 11, to: null },
      { from: 12, to: null },
    ]);
  });

  it('gives the exceed notice for 11 distinct numbers all ≤ 10', () => {
    const input = Array.from({ length: 11 }, (_, i) => `{{${i}}}`).join(' ');
    const result = renumberBodyVariables(input);
    expect(result.notice).toBe(EXCEED);
    expect(countVariables(result.text)).toBe(10);
  });

  it('does not let a dropped marker leave a new marker behind', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `{{${i + 1}}}`).join('');
    const result = renumberBodyVariables(`${ten}{{{{11}}5}}`);
    expect(renumberBodyVariables(result.text).notice).toBeNull();
    expect(countVariables(result.text)).toBeLessThanOrEqual(10);
  });
});

describe('deleteBodyVariable', () => {
  it('removes the marker and renumbers the later ones down', () => {
    expect(deleteBodyVariable('Hi {{1}}, code {{2}}, date {{3}}', 2)).toBe('Hi {{1}}, code , date {{2}}');
    expect(deleteBodyVariable('{{1}} {{2}} {{1}}', 1)).toBe(' {{1}} ');
    expect(deleteBodyVariable('{{1}} {{2}}', 5)).toBe('{{1}} {{2}}');
  });
});

describe('appendBodyVariable', () => {
  it('adds the next marker up to 10', () => {
    expect(appendBodyVariable('Hi ')).toBe('Hi {{1}}');
    expect(appendBodyVariable('Hi {{1}} ')).toBe('Hi {{1}} {{2}}');
    const ten = Array.from({ length: 10 }, (_, i) => `{{${i + 1}}}`).join(' ');
    expect(appendBodyVariable(ten)).toBe(ten);
  });
});

describe('header variable', () => {
  it('rewrites {{2}}..{{9}} to {{1}}', () => {
    for (let n = 2; n <= 9; n++) expect(normalizeHeaderText(`Order {{${n}}}`)).toBe('Order {{1}}');
  });

  it('keeps only the first variable', () => {
    expect(normalizeHeaderText('{{1}} and {{2}} and {{1}}')).toBe('{{1}} and  and ');
    expect(normalizeHeaderText('Hello {{12}}')).toBe('Hello {{1}}');
    expect(normalizeHeaderText('No variable')).toBe('No variable');
  });

  it('adds and removes the marker', () => {
    expect(addHeaderVariable('Hello ')).toBe('Hello {{1}}');
    expect(addHeaderVariable('Hello {{1}}')).toBe('Hello {{1}}');
    expect(removeHeaderVariable('Hello {{1}}!')).toBe('Hello !');
  });
});

// ---- Properties -------------------------------------------------------------------------------------------

/** Texts rich in markers and in brace/digit debris, which is where renumbering can go wrong. */
const markerArb = fc.oneof(
  fc.integer({ min: 0, max: 25 }).map((n) => `{{${n}}}`),
  fc.integer({ min: 0, max: 12 }).map((n) => `{{0${n}}}`),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 30n }).map((n) => `{{${n}}}`),
);
const debrisArb = fc.constantFrom('{', '}', '{{', '}}', '1', '5', ' ', 'a', '\n', 'é', '🙂');
const textArb = fc
  .array(fc.oneof({ weight: 3, arbitrary: markerArb }, { weight: 3, arbitrary: debrisArb }, fc.string()), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));
/** Texts whose filler has no braces, so no marker can form out of surrounding text. */
const plainTextArb = fc
  .array(fc.oneof(markerArb, fc.stringMatching(/^[^{}]{0,8}$/)), { maxLength: 40 })
  .map((parts) => parts.join(''));

function isSequentialFromOne(text: string): boolean {
  const markers = findVariables(text);
  if (markers.some((m) => m.raw !== `{{${m.key}}}`)) return false;
  const keys = new Set(markers.map((m) => m.n));
  if (keys.size > 10) return false;
  return [...keys].every((n) => Number.isInteger(n) && n >= 1 && n <= keys.size);
}

describe('renumberBodyVariables properties', () => {
  it('yields markers numbered 1..k, k ≤ 10', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(isSequentialFromOne(renumberBodyVariables(text).text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const once = renumberBodyVariables(text);
        const twice = renumberBodyVariables(once.text);
        expect(twice).toEqual({ text: once.text, notice: null, moves: [] });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the text outside the markers intact', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(stripVariables(renumberBodyVariables(text).text)).toBe(stripVariables(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives a notice exactly when it changes the text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const result = renumberBodyVariables(text);
        expect(result.notice === null).toBe(result.text === text);
        if (findVariables(text).some((m) => m.n > 10)) expect(result.notice).toBe(EXCEED);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps min(distinct, 10) variables, first appearances in order, when no marker can form', () => {
    fc.assert(
      fc.property(plainTextArb, (text) => {
        const result = renumberBodyVariables(text);
        const before = countVariables(text);
        expect(countVariables(result.text)).toBe(Math.min(before, 10));
        if (result.notice !== null) {
          expect(distinctVariables(result.text)).toEqual(
            Array.from({ length: Math.min(before, 10) }, (_, i) => i + 1),
          );
          const keys = [...new Set(findVariables(text).map((m) => m.key))];
          const kept = text.replace(/\{\{(\d+)\}\}/g, (_raw, digits: string) =>
            keys.indexOf(digits.replace(/^0+(?=\d)/, '')) < 10 ? '#' : '',
          );
          expect(result.text.replace(/\{\{\d+\}\}/g, '#')).toBe(kept);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('header and delete properties', () => {
  it('normalizeHeaderText keeps at most one variable, {{1}}, and the other text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const out = normalizeHeaderText(text);
        const markers = findVariables(out);
        expect(markers.length).toBeLessThanOrEqual(1);
        if (markers[0]) expect(markers[0].raw).toBe('{{1}}');
        expect(normalizeHeaderText(out)).toBe(out);
        expect(stripVariables(out)).toBe(stripVariables(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('deleteBodyVariable keeps a sequential text sequential with one variable less', () => {
    fc.assert(
      fc.property(plainTextArb, fc.integer({ min: 1, max: 10 }), (raw, pick) => {
        const text = renumberBodyVariables(raw).text;
        const count = countVariables(text);
        fc.pre(count > 0);
        const n = ((pick - 1) % count) + 1;
        const out = deleteBodyVariable(text, n);
        expect(countVariables(out)).toBe(count - 1);
        expect(isSequentialFromOne(out)).toBe(true);
        expect(stripVariables(out)).toBe(stripVariables(text));
      }),
      { numRuns: 1000 },
    );
  });
});
