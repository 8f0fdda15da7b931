import fc from 'fast-check';
import { signBody } from '../features/webhooks/signature';
import {
  HOSTILE_STRINGS,
  hostileKey,
  hostileRawBody,
  hostileValue,
  oddContentType,
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
}

/** Routes whose body the handler reads by hand (multipart, raw bytes): how the fuzz builds it. */
export type BodyBuilder = (ctx: FuzzContext) => fc.Arbitrary<GeneratedBody>;

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

function queryString(operation: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const params = operation.queryParams.map(({ name, schema }) =>
    fc
      .option(
        fc.oneof(
          { weight: 10, arbitrary: schemaValue(schema, ctx.resolve, true).map((v) => urlEncode(text(v))) },
          { weight: 1, arbitrary: rawUrlPiece },
        ),
        { freq: 3 },
      )
      .map((value) => (value === null ? [] : [`${urlEncode(name)}=${value}`])),
  );
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
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...params), extras).map(([pairs, more]) => {
    const all = [...pairs.flat(), ...more];
    return all.length ? `?${all.join('&')}` : '';
  });
}

function pathOf(operation: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const values = operation.pathParams.map(({ name, schema }) =>
    pathValue(plausiblePathValue(name, schema, ctx).map(urlEncode)).map((value) => [name, value] as const),
  );
  return fc.tuple(...values).map((pairs) => {
    let path = operation.path;
    for (const [name, value] of pairs) path = path.replace(`{${name}}`, value);
    return path;
  });
}

function headersOf(ctx: FuzzContext): fc.Arbitrary<Record<string, string>> {
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
    { freq: 8 },
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

/** A JSON body from the route's schema (mostly plausible, mutated), or raw junk, or an odd content type. */
function jsonBody(schema: JsonSchema | undefined, ctx: FuzzContext): ReturnType<BodyBuilder> {
  const fromSchema = schema
    ? schemaValue(schema, ctx.resolve, true)
    : fc.oneof(fc.constant({}), hostileValue);
  return fc.oneof(
    { weight: 10, arbitrary: fromSchema.map((value) => json(JSON.stringify(value) ?? 'null')) },
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
  const key = routeKey(operation);
  const takesBody = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(operation.method);
  const builder = handRead[key];
  const body: ReturnType<BodyBuilder> = builder
    ? builder(ctx)
    : operation.body
      ? jsonBody(operation.body, ctx)
      : takesBody
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constant({}) },
            { weight: 1, arbitrary: jsonBody(undefined, ctx) },
          )
        : fc.constant({});
  return fc
    .record({
      path: pathOf(operation, ctx),
      query: queryString(operation, ctx),
      headers: headersOf(ctx),
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
export const webhookBody: BodyBuilder = (ctx) =>
  fc
    .tuple(
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc
            .record({
              field: fc.constantFrom('messages', 'message_template_status_update', 'x'),
              value: hostileValue,
            })
            .map(({ field, value }) =>
              JSON.stringify({
                object: 'whatsapp_business_account',
                entry: [{ id: ctx.wabaId, changes: [{ field, value }] }],
              }),
            ),
        },
        { weight: 1, arbitrary: hostileRawBody },
      ),
      fc.constantFrom('signed', 'unsigned', 'garbage'),
    )
    .map(([payload, signature]) => {
      const body = json(payload);
      if (signature === 'signed') body.headers!['x-hub-signature-256'] = signBody(ctx.appSecret, payload);
      if (signature === 'garbage') body.headers!['x-hub-signature-256'] = `sha256=${'0'.repeat(64)}`;
      return body;
    });
