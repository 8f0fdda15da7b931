import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { login, signedInUser } from '../features/auth/auth-test-helpers';
import { importCsv } from '../features/contacts/contacts-test-helpers';
import { type FuzzContext, type FuzzRequest, requestsFor, webhookBody } from './fuzz-requests';
import { importBody, templateBody } from './multipart-bodies';
import { documentedOperations, type Operation, refResolver, routeKey, servedRoutes } from './route-table';

/**
 * A property-based fuzz of every endpoint, generated from the zod contracts through the
 * OpenAPI document the app serves. Each run is one request to one route, as the signed-in owner of a real
 * account with real contacts, a template and a broadcast: path, query, headers and body from the route's
 * schema or a valid example, plausible (reaching handlers, Postgres and the sandbox) or mixed with hostile
 * values (NULs, lone surrogates, huge and negative numbers as numbers and as text, 500- and 200,000-level
 * nesting, prototype keys, very long strings, wrong types, odd content types, broken percent-escapes).
 *
 * Property: never a 5xx, and every 4xx names a field (see namesAField). It prints one JSON line with the
 * request and 5xx counts. HERALD_FUZZ_RUNS (default 2,000) and HERALD_FUZZ_SEED (default fixed) set the run.
 */

const RUNS = Number(process.env.HERALD_FUZZ_RUNS ?? 2_000);
const SEED = Number(process.env.HERALD_FUZZ_SEED ?? 20_261_123);
const PASSWORD = 'correct horse';
const OWNER = 'fuzz-owner@acme.test';

/** Served routes the OpenAPI document leaves out, fuzzed all the same (from these shapes), and why. */
const UNDOCUMENTED: Record<string, { why: string; operation: Operation }> = {};
function undocumented(method: string, path: string, why: string, query: string[] = []) {
  const wildcard = path.endsWith('*');
  UNDOCUMENTED[`${method} ${path}`] = {
    why,
    operation: {
      method,
      path: wildcard ? path.replace('*', '{*}') : path,
      pathParams: wildcard ? [{ name: '*', schema: { type: 'string' } }] : [],
      queryParams: query.map((name) => ({ name, schema: { type: 'string' } })),
    },
  };
}
undocumented('GET', '/webhooks/whatsapp', "Meta's subscription challenge", [
  'hub.mode',
  'hub.verify_token',
  'hub.challenge',
]);
undocumented('GET', '/openapi.json', 'the document itself');
undocumented(
  'GET',
  '/l/{token}',
  'a recipient’s tracked link: a redirect or an HTML page for a phone, not JSON',
  ['click_id'],
);
undocumented('GET', '/metrics', 'Prometheus text for operators (loopback or METRICS_TOKEN), not JSON');
for (const path of [
  '/docs',
  '/docs/',
  '/docs/static/index.html',
  '/docs/static/swagger-initializer.js',
  '/docs/json',
  '/docs/yaml',
  '/docs/*',
]) {
  undocumented('GET', path, 'Swagger UI');
}

/** Routes a person's browser opens: their 4xx is a page saying what is wrong in words, not a field. */
const PAGES_FOR_PEOPLE: Record<string, string> = {
  'GET /l/{token}':
    'a tracked link opened on a phone: “This link is not valid or has expired.” (link-clicks.int.test.ts)',
};

/** Methods of served routes that get no requests of their own, and why. */
const NOT_FUZZED_METHODS: Record<string, string> = {
  HEAD: 'Fastify answers HEAD with the GET handler, which is fuzzed',
};

/** Operations that take no body although their method could carry one. */
const NO_BODY: Record<string, string> = {
  'POST /api/auth/logout/': 'ends the session of its token; the runner signs in afresh for it',
  'POST /meta/templates/{id}/submit/': 'submits the stored draft',
  'POST /meta/templates/sync/': 'refreshes the caller’s own account from Meta',
  'POST /broadcast/{id}/{action}/': 'the action is in the path',
  'DELETE /recipient/{id}/': 'the id is in the path',
  'DELETE /recipient/tags/{id}/': 'the id is in the path',
  'DELETE /segments/{id}/': 'the id is in the path',
  'POST /marketing-messages/onboarding/': 'asks Meta about the caller’s own account',
};

let t: TestApp;
let ctx: FuzzContext;
let operations: Operation[];
let handRead: Parameters<typeof requestsFor>[2];

interface Seeded {
  ids: string[];
  contactIds: number[];
  tagIds: number[];
  templateId: number;
}

/** Real objects of the owner's, so plausible requests get past lookups: contacts, a tag, an approved template, a broadcast. */
async function seed(headers: Record<string, string>): Promise<Seeded> {
  const imported = await importCsv(
    t,
    headers,
    'name,number,email\nAnn,+14155550101,a@x.io\nBob,+14155550102,b@x.io\n',
    {
      tag: 'customers',
    },
  );
  if (imported.statusCode !== 201) throw new Error(`seed import: ${imported.body}`);
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers,
    payload: {
      name: 'fuzz_seed',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Hi' }],
    },
  });
  if (template.statusCode !== 201) throw new Error(`seed template: ${template.body}`);
  const templateId = (template.json() as { id: number }).id;
  // Approved here directly: the sandbox's review webhook needs a listening app.
  await t.db.pool.query(`update templates set status = 'APPROVED' where id = $1`, [templateId]);
  const broadcast = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: {
      name: 'Fuzz seed',
      template_id: templateId,
      recipients: { type: 'all', percentage: 100 },
      scheduled_time: Math.floor(Date.now() / 1000) + 86_400,
    },
  });
  if (broadcast.statusCode !== 201) throw new Error(`seed broadcast: ${broadcast.body}`);
  const ids = async (table: string) =>
    (await t.db.pool.query<{ id: number }>(`select id::int from ${table} order by id`)).rows.map((r) => r.id);
  const contactIds = await ids('contacts');
  const tagIds = await ids('tags');
  const all = [...contactIds, ...tagIds, templateId, ...(await ids('broadcasts'))];
  return { ids: [...new Set(all)].map(String), contactIds, tagIds, templateId };
}

/** Valid bodies, for routes whose schema alone rarely yields one; the fuzz sends them as they are or mutated. */
function examples(seeded: Seeded): Record<string, fc.Arbitrary<unknown>> {
  const number = fc.integer({ min: 1000, max: 9999 }).map((n) => `+1415666${n}`);
  const name = fc.constantFrom('Ann', 'Bob Smith', 'Zoë');
  const template = fc.record({
    name: fc.stringMatching(/^[a-z_]{1,24}$/),
    language: fc.constantFrom('en_US', 'fr', 'pt_BR'),
    category: fc.constantFrom('MARKETING', 'UTILITY'),
    components: fc.constantFrom(
      [{ type: 'BODY', text: 'Your order is ready.' }],
      [
        { type: 'HEADER', format: 'TEXT', text: 'Hello' },
        { type: 'BODY', text: 'Your order is ready.' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
      ],
    ),
  });
  const future = () => Math.floor(Date.now() / 1000) + 3_600;
  return {
    'POST /recipient/create/': fc.record({ customer_name: name, whatsapp_number: number }),
    'PUT /meta/customer/': fc.record({
      customer_id: fc.constantFrom(...seeded.contactIds),
      customer_name: name,
      whatsapp_number: number,
    }),
    'POST /meta/templates/': template,
    'PUT /meta/templates/{id}/': template.map((value) => ({
      ...value,
      name: 'fuzz_seed',
      language: 'en_US',
    })),
    'DELETE /meta/templates/': fc.record({
      template_id: fc.constantFrom(...seeded.ids),
      template_name: fc.constantFrom('fuzz_seed', 'unknown_name'),
    }),
    'POST /broadcast/create/': fc.record({
      name,
      template_id: fc.constant(seeded.templateId),
      recipients: fc.oneof(
        fc.record({ type: fc.constant('all'), percentage: fc.integer({ min: 1, max: 100 }) }),
        fc.record({
          type: fc.constant('filtered'),
          tag_ids: fc.constant(seeded.tagIds),
          percentage: fc.integer({ min: 1, max: 100 }),
        }),
      ),
      scheduled_time: fc.nat(86_400).map((n) => future() + n),
    }),
    'POST /api/auth/login/': fc.record({
      username: fc.constantFrom('nobody@acme.test', 'Fuzz-Other@Acme.test'),
      password: fc.constantFrom('wrong password', 'x'),
    }),
    'POST /api/auth/password/reset/': fc.record({
      email: fc.constantFrom('nobody@acme.test', 'fuzz-other@acme.test'),
      pin: fc.constantFrom('123456', '000000', '1'),
      new_password: fc.constant('a long new password'),
    }),
  };
}

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, OWNER, 'Fuzz Shop');
  const other = await signedInUser(t, 'fuzz-other@acme.test', 'Other Shop');
  const headers = { authorization: `Bearer ${owner.accessToken}`, 'x-waba-id': owner.business.waba_id };
  const seeded = await seed(headers);
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const resolve = refResolver(doc);
  ctx = {
    accessToken: owner.accessToken,
    wabaId: owner.business.waba_id,
    otherWabaId: other.business.waba_id,
    ids: seeded.ids,
    appSecret: t.config.META_APP_SECRET,
    resolve,
    examples: examples(seeded),
  };
  const templatePayload = resolve('#/components/schemas/TemplatePayloadInput');
  handRead = {
    'POST /meta/templates/': templateBody(templatePayload, 'POST /meta/templates/'),
    'PUT /meta/templates/{id}/': templateBody(templatePayload, 'PUT /meta/templates/{id}/'),
    'POST /recipient/import/': importBody,
    'POST /webhooks/whatsapp': webhookBody,
  };
  operations = [...documentedOperations(doc), ...Object.values(UNDOCUMENTED).map((u) => u.operation)];
}, 120_000);
afterAll(() => t.close());

/** The names a route's answers may use for its fields: parameters, top-level body fields, multipart parts. */
function fieldNames(operation: Operation): string[] {
  const names = [...operation.pathParams, ...operation.queryParams].map((p) => p.name);
  let body = operation.body;
  if (typeof body?.$ref === 'string') body = ctx.resolve(body.$ref);
  names.push(...Object.keys((body?.properties as object | undefined) ?? {}));
  return [...names, ...(MULTIPART_FIELDS[routeKey(operation)] ?? [])];
}

const MULTIPART_FIELDS: Record<string, string[]> = {
  'POST /recipient/import/': ['tag', 'file'],
  'POST /meta/templates/': ['template_data', 'header_file'],
  'PUT /meta/templates/{id}/': ['template_data', 'header_file'],
};

/**
 * A 4xx names its field: `errors[].field`; or the import's bad rows, each by number with its problems; or
 * a message that says the name of one of the route's fields (sign-in's 'Invalid email or password'); or,
 * for a path no route serves (`/meta/templates/%2E%2E/` is `/meta/`), the not-found answer naming the path.
 */
function namesAField(body: unknown, names: string[]): boolean {
  const answer = body as { detail?: unknown; errors?: unknown; message?: unknown } | null;
  const errors = answer?.errors;
  if (Array.isArray(errors)) {
    return errors.length > 0 && errors.every((e) => typeof e?.field === 'string' && e.field.length > 0);
  }
  const rows = (answer?.message as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(rows)) return rows.length > 0 && rows.every((r) => typeof r?.row === 'number');
  const detail = typeof answer?.detail === 'string' ? answer.detail : '';
  if (/^Not found: [A-Z]+ \//.test(detail)) return true;
  const words = new Set(detail.toLowerCase().split(/[^a-z0-9_]+/));
  return names.some((name) => words.has(name.toLowerCase()));
}

describe('the route table', () => {
  it('fuzzes every served route: documented, or listed above with how and why', () => {
    const documented = new Set(documentedOperations(t.app.swagger() as never).map(routeKey));
    const missing = servedRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((route) => !(route.method in NOT_FUZZED_METHODS))
      .map(routeKey)
      .filter((key) => !documented.has(key) && !(key in UNDOCUMENTED));
    expect(missing).toEqual([]);
    const served = new Set(servedRoutes(t.app.printRoutes({ commonPrefix: false })).map(routeKey));
    expect(Object.keys(UNDOCUMENTED).filter((key) => !served.has(key))).toEqual([]);
  });

  it('knows how to build the body of every route that takes one', () => {
    const unknown = operations
      .filter((op) => ['POST', 'PUT', 'DELETE', 'PATCH'].includes(op.method) && !op.body)
      .map(routeKey)
      .filter((key) => !(key in handRead) && !(key in NO_BODY));
    expect(unknown).toEqual([]);
  });
});

describe('fuzz of every endpoint', () => {
  it(`answers no 5xx and names the field of every 4xx (${RUNS} requests, seed ${SEED})`, async () => {
    const started = Date.now();
    const perRoute = new Map<string, number>();
    const statuses = new Map<number, number>();
    const problems: Array<{ problem: string; request: FuzzRequest; status: number; body: string }> = [];
    let requests = 0;
    const statusesByRoute: Record<string, Record<number, number>> = {};
    let serverErrors = 0;

    const send = async (request: FuzzRequest) => {
      const headers = { ...request.headers };
      if (request.endsSession && headers.authorization === `Bearer ${ctx.accessToken}`) {
        // Logout ends the session of its token: it gets a session of its own, the owner's stays.
        const session = await login(t.app, OWNER, PASSWORD);
        headers.authorization = `Bearer ${(session.json() as { accessToken: string }).accessToken}`;
      }
      return t.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers,
        remoteAddress: request.remoteAddress,
        ...(request.payload !== undefined ? { payload: request.payload } : {}),
      });
    };

    const namesByRoute = new Map(operations.map((op) => [routeKey(op), fieldNames(op)]));
    const anyRequest = fc.oneof(...operations.map((op) => requestsFor(op, ctx, handRead)));
    await fc.assert(
      fc.asyncProperty(anyRequest, async (request) => {
        const response = await send(request);
        requests += 1;
        perRoute.set(request.route, (perRoute.get(request.route) ?? 0) + 1);
        const byRoute = (statusesByRoute[request.route] ??= {});
        byRoute[response.statusCode] = (byRoute[response.statusCode] ?? 0) + 1;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const record = (problem: string) =>
          problems.push({ problem, request, status: response.statusCode, body: response.body.slice(0, 300) });
        if (response.statusCode >= 500) {
          serverErrors += 1;
          record('5xx');
        } else if (response.statusCode >= 400) {
          let body: unknown = null;
          try {
            body = response.json();
          } catch {
            // Not JSON: it names nothing.
          }
          if (
            !(request.route in PAGES_FOR_PEOPLE) &&
            !namesAField(body, namesByRoute.get(request.route) ?? [])
          )
            record('4xx without a field');
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );

    const summary = {
      fuzz: {
        requests,
        status_5xx: serverErrors,
        status_4xx_without_field: problems.filter((p) => p.problem !== '5xx').length,
        seed: SEED,
        routes: perRoute.size,
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        seconds: Math.round((Date.now() - started) / 100) / 10,
      },
    };
    console.log(JSON.stringify(summary));
    if (process.env.HERALD_FUZZ_VERBOSE) console.log(JSON.stringify(statusesByRoute, null, 1));
    // One example per route and problem, enough to reproduce it by hand.
    const examples = new Map<string, (typeof problems)[number]>();
    for (const p of problems) examples.set(`${p.problem} ${p.request.route} ${p.status}`, p);
    const shown = [...examples.values()].map((p) => ({
      problem: p.problem,
      route: p.request.route,
      status: p.status,
      url: p.request.url.slice(0, 200),
      headers: p.request.headers,
      payload:
        typeof p.request.payload === 'string'
          ? p.request.payload.slice(0, 300)
          : p.request.payload?.toString('latin1').slice(0, 300),
      body: p.body,
    }));
    expect(shown).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(RUNS);
    expect([...perRoute.keys()].sort()).toEqual(operations.map(routeKey).sort());
  }, 600_000);
});
