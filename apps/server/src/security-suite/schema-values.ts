import fc from 'fast-check';
import { hostileKey, hostileValue, withOwnKey } from './hostile-values';

/** A JSON Schema node as the OpenAPI document (generated from the zod contracts) carries it. */
export type JsonSchema = Record<string, unknown>;

/** Resolves `$ref`s of the document the schema comes from. */
export type RefResolver = (ref: string) => JsonSchema;

const MAX_DEPTH = 6;
const SHORT_STRING = 24;

/** An arbitrary that yields `arb`'s value `percent` of the time, else undefined. */
function sometimes<T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: 100 - percent, arbitrary: fc.constant(undefined) },
    { weight: percent, arbitrary: arb },
  );
}

function numberBounds(schema: JsonSchema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : Number.EPSILON;
  let min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  if (typeof schema.exclusiveMinimum === 'number') min = schema.exclusiveMinimum + step;
  else if (schema.exclusiveMinimum === true) min += step;
  let max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (typeof schema.exclusiveMaximum === 'number') max = schema.exclusiveMaximum - step;
  else if (schema.exclusiveMaximum === true) max -= step;
  return { min, max: Math.max(min, max) };
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (typeof schema.pattern === 'string') {
    const matching = fc.stringMatching(new RegExp(schema.pattern));
    return maxLength === undefined ? matching : matching.map((text) => text.slice(0, maxLength));
  }
  const upper = Math.min(maxLength ?? SHORT_STRING, Math.max(minLength, SHORT_STRING));
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: upper }) },
    // Text that looks like what fields hold: names, numbers, e-mails.
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('Ann', 'order_ready', '+14155550123', 'ann@example.com', 'en_US', '1', 'hello world')
        .map((text) => (text.length >= minLength ? text : text.padEnd(minLength, 'x'))),
    },
  );
}

/**
 * Values for one schema: plausible ones (right types, within the bounds, enums and patterns), and, when
 * `hostile` is set, at every node a small chance of a hostile value instead, and on objects a chance of a
 * hostile extra key or a missing required one. Plausible values reach the handlers; hostile ones probe the
 * guard, the validators and everything behind them.
 */
export function schemaValue(
  schema: JsonSchema,
  resolve: RefResolver,
  hostile: boolean,
  depth = 0,
): fc.Arbitrary<unknown> {
  const plausible = plausibleValue(schema, resolve, hostile, depth);
  if (!hostile) return plausible;
  return fc.oneof({ weight: 12, arbitrary: plausible }, { weight: 1, arbitrary: hostileValue });
}

function plausibleValue(
  schema: JsonSchema,
  resolve: RefResolver,
  hostile: boolean,
  depth: number,
): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return schemaValue(resolve(schema.$ref), resolve, hostile, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    return fc.oneof(...choices.map((choice) => schemaValue(choice, resolve, hostile, depth)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schemaValue(schema.allOf[0] as JsonSchema, resolve, hostile, depth);
  }
  const types = [schema.type].flat().filter((type): type is string => typeof type === 'string');
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => plausibleValue({ ...schema, type }, resolve, hostile, depth)));
  }
  switch (types[0]) {
    case 'string':
      return stringFor(schema);
    case 'integer': {
      const { min, max } = numberBounds(schema, true);
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'number': {
      const { min, max } = numberBounds(schema, false);
      return fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const items = (schema.items as JsonSchema | undefined) ?? {};
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return fc.array(schemaValue(items, resolve, hostile, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, 3),
      });
    }
    case 'object':
      return objectValue(schema, resolve, hostile, depth);
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectValue(
  schema: JsonSchema,
  resolve: RefResolver,
  hostile: boolean,
  depth: number,
): fc.Arbitrary<unknown> {
  if (depth >= MAX_DEPTH) return fc.constant({});
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = ((schema.required as string[] | undefined) ?? []).filter((key) => key in properties);
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      schemaValue(property, resolve, hostile, depth + 1),
    ]),
  );
  const record = fc.record(model, { requiredKeys: required });
  if (!hostile) return record;
  return fc
    .tuple(
      record,
      sometimes(fc.tuple(hostileKey, hostileValue), 10),
      sometimes(fc.constantFrom(...(required.length ? required : ['-'])), 8),
    )
    .map(([value, extra, missing]) => {
      const object = { ...(value as Record<string, unknown>) };
      if (missing !== undefined) delete object[missing];
      if (extra !== undefined) withOwnKey(object, extra[0], extra[1]);
      return object;
    });
}
