import fc from 'fast-check';

/**
 * The catalogue of values an attacker tries first: NULs, lone surrogates, numbers at and past
 * every limit (also as text, as a query or path carries them), deep nesting, prototype keys, very long
 * strings and wrong types. The fuzz mixes them into otherwise plausible requests.
 */

/** Nested `levels` deep: arrays or objects, as a JSON parser builds them. */
export function deeplyNested(levels: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** An object that holds `key` as its own enumerable property, even `__proto__`, so JSON.stringify sends it. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udbff\udbff',
  '\ud83d',
  '',
  ' ',
  '\t\r\n',
  '%00',
  '1e308',
  '-1e308',
  '-0',
  '18446744073709551616',
  '-18446744073709551616',
  '9007199254740993',
  '9'.repeat(400),
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '-1',
  '0',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '\u202eevil',
  '\ufeff',
  '😀'.repeat(50),
  'x'.repeat(5_000),
  'y'.repeat(70_000),
];

export const HOSTILE_NUMBERS: readonly number[] = [
  1e308,
  -1e308,
  -0,
  2 ** 64,
  -(2 ** 64),
  2 ** 53 + 2,
  2 ** 31,
  -1,
  0,
  1.5,
  Number.MIN_VALUE,
];

/** Any hostile value, of any JSON type: what a field receives when the fuzz mutates it. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[[]]], { x: [1, 'a'] }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map((key) => withOwnKey({}, key, { polluted: true })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(31, 33, 500), fc.constantFrom<'array' | 'object'>('array', 'object'))
      .map(([levels, kind]) => deeplyNested(levels, kind)),
  },
);

/** A hostile key for an object: prototype names, NULs, surrogates, long or empty names. */
export const hostileKey: fc.Arbitrary<string> = fc.constantFrom(
  ...PROTOTYPE_KEYS,
  'a\u0000',
  '\ud800',
  '',
  'k'.repeat(300),
  'toString',
  'hasOwnProperty',
);

/** Text that is not valid JSON, or JSON no route expects: a raw body. */
export const hostileRawBody: fc.Arbitrary<string> = fc.constantFrom(
  '',
  'not json',
  '{"a":',
  '{"a":1}}',
  'null',
  '0',
  '"text"',
  '[]',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"\\u0000":1}',
  '{"a":1e999}',
  '{"a":-0}',
  `${'['.repeat(500)}${']'.repeat(500)}`,
  `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`,
  `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
  `{"a":"${'z'.repeat(1_100_000)}"}`,
);

/** Content types other than the one a route reads. */
export const oddContentType: fc.Arbitrary<string> = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  'application/xml',
  'application/octet-stream',
  'application/json; charset=latin1',
  '*/*',
  'image/png',
);

/**
 * Text as it travels in a URL: percent-encoded where that is possible; a lone surrogate (which
 * encodeURIComponent refuses) goes as the bytes a sloppy client would send, invalid UTF-8.
 */
export function urlEncode(text: string): string {
  const byte = (value: number) => `%${value.toString(16).toUpperCase()}`;
  let out = '';
  for (const char of text) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += byte(0xe0 | (unit >> 12)) + byte(0x80 | ((unit >> 6) & 0x3f)) + byte(0x80 | (unit & 0x3f));
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** Raw URL pieces a client can send as they are: broken escapes, overlong NUL, encoded slashes and dots. */
export const rawUrlPiece: fc.Arbitrary<string> = fc.constantFrom(
  '%00',
  '%',
  '%zz',
  '%C0%80',
  '%ED%A0%80',
  '%FF',
  '%2F',
  '..',
  '%2E%2E',
  '%20',
  '+',
  '%0A',
  '%E2%80%AE',
);

/** Path parameter values: plausible ids, and every shape a number can go wrong in. */
export function pathValue(plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: plausible },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '-0',
        '1.5',
        '1e3',
        '0x10',
        '9007199254740993',
        '18446744073709551616',
        '9'.repeat(400),
        'NaN',
        'abc',
        ' 1',
        '1 ',
      ),
    },
    { weight: 2, arbitrary: rawUrlPiece },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.slice(0, 6)).map(urlEncode) },
  );
}
