import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findUnsafeInput, isSafeText, MAX_INPUT_DEPTH, UNSAFE_TEXT_RULE } from './safe-text';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe('isSafeText', () => {
  it.each([
    ['plain text', 'Hello, world', true],
    ['an empty string', '', true],
    ['a surrogate pair (emoji)', 'Hi 😀', true],
    ['other control characters', 'tab\there\u0001', true],
    ['U+0000', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud83d', false],
    ['a lone high surrogate before text', '\ud83dx', false],
    ['a lone low surrogate', '\ude00b', false],
    ['two high surrogates', '\ud83d\ud83d\ude00', false],
  ])('%s → %s', (_name, text, safe) => {
    expect(isSafeText(text)).toBe(safe);
  });

  it('agrees with String.prototype.isWellFormed plus the NUL rule on any UTF-16 text', () => {
    const wellFormed = (text: string) =>
      (text as unknown as { isWellFormed(): boolean }).isWellFormed() && !text.includes('\u0000');
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) }),
        (a, b) => {
          expect(isSafeText(a)).toBe(wellFormed(a));
          expect(isSafeText(b)).toBe(wellFormed(b));
        },
      ),
    );
  });
});

describe('findUnsafeInput', () => {
  it('answers null for safe values of any shape', () => {
    expect(findUnsafeInput({ name: 'Ann', tags: ['a', 'b'], n: 1, ok: true, none: null }, 'body')).toBeNull();
    expect(findUnsafeInput(undefined, 'body')).toBeNull();
    expect(findUnsafeInput(nested(MAX_INPUT_DEPTH), 'body')).toBeNull();
  });

  it('names a string field by its dotted path, in the message too', () => {
    expect(findUnsafeInput({ name: 'A\u0000' }, 'body')).toEqual({
      field: 'body.name',
      message: `body.name ${UNSAFE_TEXT_RULE}`,
    });
    expect(findUnsafeInput({ components: [{ text: 'ok' }, { text: '\udc00' }] }, 'body')).toEqual({
      field: 'body.components.1.text',
      message: `body.components.1.text ${UNSAFE_TEXT_RULE}`,
    });
  });

  it('checks a value that is itself a string', () => {
    expect(findUnsafeInput('x\u0000', 'tag')?.field).toBe('tag');
    expect(findUnsafeInput('x\u0000', '')?.field).toBe('value');
  });

  it('checks keys, and shows a refused key escaped', () => {
    const found = findUnsafeInput({ attributes: { 'a\u0000b': 'fine' } }, 'body');
    expect(found?.field).toBe('body.attributes.a\\u0000b');
    expect(found?.message).toContain('(a key)');
    expect(found?.field).not.toContain('\u0000');
  });

  it('reports the first problem in the order of the input', () => {
    expect(findUnsafeInput({ a: 'ok', b: '\u0000', c: '\u0000' }, 'query')?.field).toBe('query.b');
    expect(findUnsafeInput(['\u0000', '\u0000'], 'body')?.field).toBe('body.0');
  });

  it('skips bytes (a raw body) instead of walking them', () => {
    expect(findUnsafeInput(Buffer.from([0, 0, 0]), 'body')).toBeNull();
  });

  it('refuses nesting past MAX_INPUT_DEPTH without recursing (100,000 levels)', () => {
    expect(findUnsafeInput(nested(MAX_INPUT_DEPTH + 1), 'body')?.message).toContain('nested too deeply');
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    const found = findUnsafeInput(deep, 'body');
    expect(found?.field.startsWith('body.0.0')).toBe(true);
    expect(found?.message).toContain('nested too deeply');
  });

  it('finds a NUL or lone surrogate planted anywhere in a generated value', () => {
    const bad = fc.constantFrom('\u0000', '\ud800', '\udfff');
    fc.assert(
      fc.property(fc.jsonValue(), bad, fc.nat(), (value, poison, seed) => {
        fc.pre(findUnsafeInput(value, 'body') === null);
        // Planted after a clean generated value: as a value, then as a key.
        const holder = { wrapper: value, [`k${seed}`]: `x${poison}y` };
        expect(findUnsafeInput({ wrapper: value, [poison]: 1 }, 'body')?.message).toContain('(a key)');
        const found = findUnsafeInput(holder, 'body');
        expect(found?.field).toBe(`body.k${seed}`);
      }),
    );
  });
});
