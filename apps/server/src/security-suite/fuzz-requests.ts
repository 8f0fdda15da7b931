import fc from 'fast-check';
import { signBody } from '../features/webhooks/signature';
import {
  HOSTILE_STRINGS,
  hostileKey,
  hostileRawBody,
  hostileValue,
  oddContentType,
  withOwnKey,
  pathValue,
  rawUrlPiece,
  urlEncode,
} from './hostile-values';
import { routeKey, type Operation } from './route-table';
import { schemaValue, type JsonSchema, type RefResolver } from './schema-values';

/** One generated request, ready for `app.inject`. */
export interface FuzzRequest {
  route: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
  /** The route ends the caller's session (logout): the runner signs in afresh for it. */
  endsSession: boolean;
}

/** What the fuzz knows of the signed-in owner and the world around them. */
export interface FuzzContext {
  accessToken: string;
  wabaId: string;
  /** Another business's account: its id in X-WABA-ID must be refused. */
  otherWabaId: string;
  /** Ids of the owner's real objects (contacts, templates, broadcasts, media), so handlers get past lookups. */
  ids: string[];
  appSecret: string;
  resolve: RefResolver;
  /** Valid bodies of routes whose schema alone rarely yields one (real ids, template rules), by route. */
  examples: Record<string, fc.Arbitrary<unknown>>;
}

/** Routes whose body the handler reads by hand (multipart, raw bytes): how the fuzz builds it. */
export type BodyBuilder = (ctx: FuzzContext, hostile: boolean) => fc.Arbitrary<GeneratedBody>;

/** A body and the headers that describe it (content type, a webhook's signature). */
export interface GeneratedBody {
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

const json = (payload: string): GeneratedBody => ({
  payload,
  headers: { 'content-type': 'application/json' },
});

/** Operations that end the session of the token they are called with. */
const SESSION_ENDING = new Set(['POST /api/auth/logout/']);

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

function plausiblePathValue(name: string, schema: JsonSchema, ctx: FuzzContext): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum.map(String));
  if (name === 'id') return fc.constantFrom(...ctx.ids, '1', '2', '3');
  return schemaValue(schema, ctx.resolve, false).map(text);
}

function queryString(operation: Operation, ctx: FuzzContext, hostile: boolean): fc.Arbitrary<string> {
  const params = operation.queryParams.map(({ name, schema }) => {
    const plausible = schemaValue(schema, ctx.resolve, hostile).map((v) => urlEncode(text(v)));
    const value = hostile
      ? fc.oneof({ weight: 10, arbitrary: plausible }, { weight: 1, arbitrary: rawUrlPiece })
      : plausible;
    return fc.option(value, { freq: 3 }).map((v) => (v === null ? [] : [`${urlEncode(name)}=${v}`]));
  });
  if (!hostile) {
    return fc.tuple(...params).map((pairs) => (pairs.flat().length ? `?${pairs.flat().join('&')}` : ''));
  }
  const extras = fc.array(
    fc.oneof(
      // A repeated known parameter becomes an array; unknown and prototype names must be harmless.
      fc.constantFrom(...operation.queryParams.map((p) => p.name), 'x').map((name) => `${name}=1&${name}=2`),
      fc
        .tuple(hostileKey, fc.constantFrom(...HOSTILE_STRINGS))
        .map(([k, v]) => `${urlEncode(k)}=${urlEncode(v)}`),
      fc.constantFrom(
        '__proto__[polluted]=1',
        'constructor[prototype][polluted]=1',
        '=',
        '&&',
        'a',
        '%00=%00',
      ),
    ),
    { maxLength: 1 },
  );
  return fc.tuple(fc.tuple(...params), extras).map(([pairs, more]) => {
    const all = [...pairs.flat(), ...more];
    return all.length ? `?${all.join('&')}` : '';
  });
}

function pathOf(operation: Operation, ctx: FuzzContext, hostile: boolean): fc.Arbitrary<string> {
  const values = operation.pathParams.map(({ name, schema }) => {
    const plausible = plausiblePathValue(name, schema, ctx).map(urlEncode);
    return (hostile ? pathValue(plausible) : plausible).map((value) => [name, value] as const);
  });
  return fc.tuple(...values).map((pairs) => {
    let path = operation.path;
    for (const [name, value] of pairs) path = path.replace(`{${name}}`, value);
    return path;
  });
}

function headersOf(ctx: FuzzContext, hostile: boolean): fc.Arbitrary<Record<string, string>> {
  if (!hostile) return fc.constant({ authorization: `Bearer ${ctx.accessToken}`, 'x-waba-id': ctx.wabaId });
  const authorization = fc.oneof(
    { weight: 14, arbitrary: fc.constant(`Bearer ${ctx.accessToken}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer x.y.z',
        `Bearer ${ctx.accessToken}x`,
        'Basic YTpi',
        `Bearer ${'a'.repeat(10_000)}`,
        'Bearer \u0000',
      ),
    },
  );
  const waba = fc.oneof(
    { weight: 14, arbitrary: fc.constant(ctx.wabaId) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(ctx.otherWabaId) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1_000)) },
  );
  const extra = fc.option(
    fc.tuple(
      fc.constantFrom('x-forwarded-for', 'accept', 'x-requested-with', 'cookie'),
      fc.constantFrom(...HOSTILE_STRINGS.slice(0, 10)),
    ),
    { freq: 10 },
  );
  return fc.tuple(authorization, waba, extra).map(([auth, wabaId, more]) => {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.authorization = auth;
    // Header values are latin-1 on the wire: a lone surrogate cannot travel in one.
    if (wabaId !== undefined) headers['x-waba-id'] = wabaId.replace(/[\ud800-\udfff]/g, '?');
    if (more) headers[more[0]] = more[1].replace(/[\ud800-\udfff]/g, '?');
    return headers;
  });
}

/** Paths to every place in a value (its leaves and containers), for picking one to mutate. */
function placesIn(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  out.push(path);
  if (typeof value === 'object' && value !== null && path.length < 8) {
    for (const key of Object.keys(value))
      placesIn((value as Record<string, unknown>)[key], [...path, key], out);
  }
  return out;
}

/** A valid example with one place changed: replaced by a hostile value, removed, or given a hostile key. */
export function mutatedExample(example: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(example, fc.nat(), fc.constantFrom('replace', 'remove', 'add-key'), hostileValue, hostileKey)
    .map(([value, pick, how, hostile, key]) => {
      const copy = structuredClone(value) as Record<string, unknown>;
      const places = placesIn(copy);
      const path = places[pick % places.length]!;
      if (path.length === 0) return how === 'replace' ? hostile : copy;
      const parent = path.slice(0, -1).reduce<Record<string, unknown>>((at, k) => at[k] as never, copy);
      const last = path.at(-1)!;
      if (how === 'replace') parent[last] = hostile;
      else if (how === 'remove') delete parent[last];
      else if (typeof parent[last] === 'object' && parent[last] !== null) {
        withOwnKey(parent[last] as Record<string, unknown>, key, hostile);
      } else parent[last] = hostile;
      return copy;
    });
}

/** A JSON body from the route's schema or example (mostly plausible, mutated), raw junk, or an odd content type. */
function jsonBody(
  schema: JsonSchema | undefined,
  example: fc.Arbitrary<unknown> | undefined,
  ctx: FuzzContext,
): ReturnType<BodyBuilder> {
  const fromSchema = schema
    ? schemaValue(schema, ctx.resolve, true)
    : fc.oneof(fc.constant({}), hostileValue);
  const mutated = example ? fc.oneof(fromSchema, mutatedExample(example)) : fromSchema;
  return fc.oneof(
    { weight: 10, arbitrary: mutated.map((value) => json(JSON.stringify(value) ?? 'null')) },
    { weight: 2, arbitrary: hostileRawBody.map(json) },
    {
      weight: 1,
      arbitrary: fc.tuple(fromSchema, oddContentType).map(([value, contentType]) => ({
        payload: JSON.stringify(value) ?? '',
        headers: { 'content-type': contentType },
      })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/** Requests for one operation: its path, query, headers and body, each plausible or hostile. */
export function requestsFor(
  operation: Operation,
  ctx: FuzzContext,
  handRead: Record<string, BodyBuilder>,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: requestOf(operation, ctx, handRead, false) },
    { weight: 3, arbitrary: requestOf(operation, ctx, handRead, true) },
  );
}

/**
 * A plausible request (the owner's headers, values within the schema or a valid example) reaches the handler
 * and the database; a hostile one mixes hostile values into every part.
 */
function requestOf(
  operation: Operation,
  ctx: FuzzContext,
  handRead: Record<string, BodyBuilder>,
  hostile: boolean,
): fc.Arbitrary<FuzzRequest> {
  const key = routeKey(operation);
  const takesBody = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(operation.method);
  const builder = handRead[key];
  const example = ctx.examples[key];
  let body: ReturnType<BodyBuilder>;
  if (builder) body = builder(ctx, hostile);
  else if (!hostile) {
    const value = example ?? (operation.body ? schemaValue(operation.body, ctx.resolve, false) : undefined);
    body = value ? value.map((v) => json(JSON.stringify(v))) : fc.constant({});
  } else if (operation.body) body = jsonBody(operation.body, example, ctx);
  else if (takesBody) {
    body = fc.oneof(
      { weight: 4, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: jsonBody(undefined, undefined, ctx) },
    );
  } else body = fc.constant({});
  return fc
    .record({
      path: pathOf(operation, ctx, hostile),
      query: queryString(operation, ctx, hostile),
      headers: headersOf(ctx, hostile),
      body,
      remoteAddress: fc.constantFrom('10.0.0.1', '10.0.0.2', '203.0.113.7', '2001:db8::1'),
    })
    .map(({ path, query, headers, body: { payload, headers: bodyHeaders }, remoteAddress }) => ({
      route: key,
      method: operation.method,
      url: path + query,
      headers: { ...headers, ...bodyHeaders },
      ...(payload !== undefined ? { payload } : {}),
      remoteAddress,
      endsSession: SESSION_ENDING.has(key),
    }));
}

/** A webhook body as Meta would post it, signed or not, mutated or raw. */
export const webhookBody: BodyBuilder = (ctx, hostile) => {
  const envelope = fc
    .record({
      field: fc.constantFrom('messages', 'message_template_status_update', 'x'),
      value: hostile ? hostileValue : fc.jsonValue({ maxDepth: 3 }),
    })
    .map(({ field, value }) =>
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: ctx.wabaId, changes: [{ field, value }] }],
      }),
    );
  const payload = hostile
    ? fc.oneof({ weight: 3, arbitrary: envelope }, { weight: 1, arbitrary: hostileRawBody })
    : envelope;
  const signature = hostile ? fc.constantFrom('signed', 'unsigned', 'garbage') : fc.constant('signed');
  return fc.tuple(payload, signature).map(([text, how]) => {
    const body = json(text);
    if (how === 'signed') body.headers!['x-hub-signature-256'] = signBody(ctx.appSecret, text);
    if (how === 'garbage') body.headers!['x-hub-signature-256'] = `sha256=${'0'.repeat(64)}`;
    return body;
  });
};
