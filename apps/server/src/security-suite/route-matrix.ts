import type { InjectOptions } from 'fastify';
import {
  importBody,
  samplePayloads,
  type BodySample,
  type SampleContext,
  type SlotPicker,
} from './route-samples';
import type { Slot } from './tenants';

// The samples' shapes live with the samples (route-samples.ts); the matrix's callers take them from here.
export type { BodySample, SampleContext, SlotPicker };
export type { RequestBody } from './route-samples';

/**
 * The cross-tenant matrix's view of the route table: every route Fastify serves (read from printRoutes, so
 * a route hidden from the OpenAPI document is still walked), which are public on purpose, and how to fill
 * each route's ids. A route the tables cannot fill fails the matrix with what to add, never is skipped.
 */

export interface ServedRoute {
  method: string;
  /** OpenAPI form: `/recipient/{id}/`. */
  path: string;
}

export const routeKey = (route: ServedRoute) => `${route.method} ${route.path}`;

/** Every method and path of `app.printRoutes({ commonPrefix: false })` (one tree level per 4 columns). */
export function servedRoutes(printed: string): ServedRoute[] {
  const routes: ServedRoute[] = [];
  const prefixes: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const level = match[1]!.length / 4;
    const path = (prefixes[level - 1] ?? '') + match[2]!;
    prefixes[level] = path;
    prefixes.length = level + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method) routes.push({ method, path: path.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return routes;
}

/** Routes anyone may call, each with why: the matrix checks only that the list names served routes. */
export const PUBLIC_ROUTES: Record<string, string> = {
  'POST /api/auth/facebook/callback/': 'sign-up: proven by the one-time Embedded Signup code',
  'POST /api/auth/login/': 'sign-in: proven by the password (rate limited)',
  'POST /api/login/refresh/': 'proven by the refresh token itself (tokens.int.test.ts)',
  'POST /api/auth/password/reset/': 'proven by the e-mail and the sign-up PIN (rate limited)',
  'GET /api/auth/signup-config/': 'public Embedded Signup settings the sign-up page needs',
  'GET /healthz': 'liveness for load balancers; tells nothing about any business',
  'GET /readyz': 'readiness for load balancers (database, migrations); tells nothing about any business',
  'GET /metrics':
    'operators only: loopback or METRICS_TOKEN (plugins/metrics.ts); no business data, ids only',
  'GET /webhooks/whatsapp': "Meta's subscription challenge, proven by WEBHOOK_VERIFY_TOKEN",
  'GET /l/{token}':
    'a recipient’s tracked link, opened by their phone: proven by the token’s signature; answers a redirect, no data',
  'POST /webhooks/whatsapp': "Meta's webhooks, proven by X-Hub-Signature-256",
  'GET /openapi.json': 'the API description (no data)',
  'GET /docs': 'Swagger UI (no data)',
  'GET /docs/': 'Swagger UI (no data)',
  'GET /docs/static/index.html': 'Swagger UI (no data)',
  'GET /docs/static/swagger-initializer.js': 'Swagger UI (no data)',
  'GET /docs/json': 'the API description (no data)',
  'GET /docs/yaml': 'the API description (no data)',
  'GET /docs/*': 'Swagger UI assets (no data)',
};

/** Methods the matrix does not send, and why. */
export const SKIPPED_METHODS: Record<string, string> = {
  HEAD: 'Fastify answers HEAD with the GET route’s hooks and handler, which the matrix walks',
};

/** Routes that end the caller's session: each request to them gets a fresh session of its own. */
export const SESSION_ENDING = new Set(['POST /api/auth/logout/']);

/** What fills a path parameter: an object of the tenant (`slot`) or a fixed value. */
type ParamSample = Slot | { value: string };

/** Path parameters by route: `id` means a contact in one route and a template in another. */
export const PATH_SAMPLES: Record<string, Record<string, ParamSample>> = {
  '/recipient/{id}/': { id: 'contact' },
  '/recipient/tags/{id}/': { id: 'tag' },
  '/meta/templates/{id}/': { id: 'template' },
  '/meta/templates/{id}/submit/': { id: 'draftTemplate' },
  '/meta/templates/{id}/clicks/': { id: 'template' },
  '/meta/templates/media/{id}/': { id: 'media' },
  '/broadcast/{id}/{action}/': { id: 'broadcast', action: { value: 'cancel' } },
  '/broadcast/{id}/recipients/': { id: 'broadcast' },
  '/broadcast/{id}/recipients/export.csv': { id: 'broadcast' },
  '/pricing/broadcasts/{id}/meta/': { id: 'broadcast' },
  '/segments/{id}/': { id: 'segment' },
  // Not an object id: a signed token no tenant's request can forge (link-clicks.int.test.ts).
  '/l/{token}': { token: { value: '1.1.AAAAAAAAAAAAAAAA' } },
};

/** The body of every route that takes one (or why it takes none). A write route missing here fails. */
export const BODY_SAMPLES: Record<string, BodySample> = {
  ...samplePayloads,
  'POST /recipient/import/': (_pick, context) => ({ multipart: importBody(context.unique()) }),
  'DELETE /recipient/{id}/': { none: 'the contact is named by the path' },
  'DELETE /recipient/tags/{id}/': { none: 'the tag is named by the path' },
  'POST /meta/templates/{id}/submit/': { none: 'the draft is named by the path' },
  'POST /meta/templates/sync/': { none: 'refreshes the caller’s own account' },
  'POST /broadcast/{id}/{action}/': { none: 'the broadcast is named by the path' },
  'DELETE /segments/{id}/': { none: 'the segment is named by the path' },
  'POST /api/auth/logout/': { none: 'ends the caller’s own session' },
  'POST /marketing-messages/onboarding/': { none: 'asks Meta about the caller’s own account' },
};

/**
 * Body ids one sample cannot hold beside the others, by route, and the test that crosses them instead. A
 * segment is a third kind of `recipients`, exclusive of `tag_ids`, which the samples above cross.
 */
const SEGMENT_RECIPIENTS =
  'recipients of type segment exclude tag_ids: another account’s segment is refused in segments.int.test.ts';
export const BODY_IDS_CROSSED_ELSEWHERE: Record<string, Record<string, string>> = {
  'POST /broadcast/create/': { segment_id: SEGMENT_RECIPIENTS },
  'POST /broadcast/estimate/': { segment_id: SEGMENT_RECIPIENTS },
  'POST /pricing/estimate/': { segment_id: SEGMENT_RECIPIENTS },
};

/** Query parameters that name objects, by route: a new `…_id` query parameter must be added. */
export const QUERY_SAMPLES: Record<string, Record<string, Slot>> = {
  'GET /recipient/create/': { tag_ids: 'tag', segment_id: 'segment' },
  'GET /pricing/broadcasts/': { ids: 'broadcast' },
};

const ID_NAME = /(^|_)ids?$/;

export interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>
  >;
  components?: { schemas?: Record<string, unknown> };
}

/** Property names (at any depth) of the route's JSON body schema that name objects (`id`, `x_id`, `x_ids`). */
export function idFieldsOfBody(doc: OpenApiDocument, route: ServedRoute): string[] {
  const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
  const content = (operation?.requestBody as { content?: Record<string, { schema?: unknown }> })?.content;
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (schema: unknown) => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const node = schema as Record<string, unknown>;
    if (typeof node.$ref === 'string') {
      walk(doc.components?.schemas?.[node.$ref.replace('#/components/schemas/', '')]);
    }
    for (const [name, child] of Object.entries((node.properties as Record<string, unknown>) ?? {})) {
      if (ID_NAME.test(name)) found.add(name);
      walk(child);
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach(walk);
      else walk(child);
    }
  };
  walk(content?.['application/json']?.schema);
  return [...found];
}

function containsKey(value: unknown, key: string): boolean {
  if (!value || typeof value !== 'object') return false;
  if (Object.hasOwn(value, key)) return true;
  return Object.values(value).some((child) => containsKey(child, key));
}

/**
 * The request for `route` with every id filled through `pick`, plus the caller's headers. Throws with what
 * to add when a parameter, query id or body has no sample, so a new route cannot pass unfilled.
 */
export async function buildRequest(
  route: ServedRoute,
  doc: OpenApiDocument,
  pick: SlotPicker,
  context: SampleContext,
): Promise<InjectOptions> {
  const url = route.path.replace(/\{([^}]+)\}/g, (_whole, param: string) => {
    const sample = PATH_SAMPLES[route.path]?.[param];
    if (!sample) throw new Error(`add a sample for :${param} (${routeKey(route)}) in PATH_SAMPLES`);
    return encodeURIComponent(String(typeof sample === 'string' ? pick(sample) : sample.value));
  });
  const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
  const query: Record<string, string> = {};
  for (const parameter of operation?.parameters ?? []) {
    if (parameter.in !== 'query' || !ID_NAME.test(parameter.name)) continue;
    const slot = QUERY_SAMPLES[routeKey(route)]?.[parameter.name];
    if (!slot) throw new Error(`add a sample for ?${parameter.name} (${routeKey(route)}) in QUERY_SAMPLES`);
    query[parameter.name] = String(pick(slot));
  }
  const request: InjectOptions = { method: route.method as InjectOptions['method'], url, query };
  if (route.method === 'GET') return request;
  const sample = BODY_SAMPLES[routeKey(route)];
  if (!sample) throw new Error(`add a body sample for ${routeKey(route)} in BODY_SAMPLES (or { none: why })`);
  if ('none' in sample) return request;
  const body = await sample(pick, context);
  if ('multipart' in body) {
    return { ...request, payload: body.multipart.payload, headers: body.multipart.headers };
  }
  for (const field of idFieldsOfBody(doc, route)) {
    if (!containsKey(body.json, field) && !BODY_IDS_CROSSED_ELSEWHERE[routeKey(route)]?.[field]) {
      throw new Error(`the body sample of ${routeKey(route)} leaves out the id field ${field}`);
    }
  }
  return { ...request, payload: body.json as InjectOptions['payload'] };
}
