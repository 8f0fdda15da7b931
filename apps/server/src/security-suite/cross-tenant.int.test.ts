import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { login } from '../features/auth/auth-test-helpers';
import {
  buildRequest,
  type OpenApiDocument,
  PUBLIC_ROUTES,
  routeKey,
  type SampleContext,
  servedRoutes,
  type ServedRoute,
  SESSION_ENDING,
  SKIPPED_METHODS,
  type SlotPicker,
} from './route-matrix';
import {
  createTenant,
  leakedMarker,
  listenForWebhooks,
  PASSWORD,
  sandboxSignup,
  type Slot,
  type Tenant,
} from './tenants';

/**
 * The cross-tenant matrix. Two businesses, A and B, each with a contact, a tag, templates,
 * a media file and a broadcast. Every route the app serves is walked (the route table comes from Fastify
 * itself, so a route added tomorrow is walked tomorrow) and each way B could reach A's data is tried:
 * (a) B's token with A's X-WABA-ID, (b) B's token and account with one of A's ids in the path, query or body,
 * (c) no token. None may answer 2xx or show A's names and numbers. In (b) the answer is 403 or 404, or else a
 * 4xx exactly like the one for an id that names nothing (a broadcast naming a foreign template gets the same
 * 400 'Please select a message template' as one naming no template): either way B cannot tell A's object
 * exists. A's own requests, with the same samples, are the positive control (so nothing passes by 404ing).
 */

let t: TestApp;
let A: Tenant;
let B: Tenant;
let doc: OpenApiDocument;
let routes: ServedRoute[];
let businessRoutes: Set<string>;
let counter = 0;

/** Values that name nothing, to tell "another business's object" from "no object" (they must look alike). */
const NOWHERE: Record<Slot, string | number> = {
  waba: '999999999999999',
  phoneNumber: '999999999999998',
  contact: 2_000_000_000,
  tag: 2_000_000_000,
  template: 2_000_000_000,
  metaTemplate: '999999999999997',
  templateName: 'no_such_template',
  draftTemplate: 2_000_000_000,
  media: 2_000_000_000,
  broadcast: 2_000_000_000,
  segment: 2_000_000_000,
};

const context: SampleContext = {
  freshSignup: () => sandboxSignup(t.sandboxUrl, `Fresh ${counter++} Ltd`),
  unique: () => String(1000 + (counter++ % 9000)),
};

/** The caller's ids, except `crossed`, which comes from `other` (and records every slot used). */
function picker(
  caller: Tenant,
  crossed?: { slot: Slot; value: string | number },
  used?: Set<Slot>,
): SlotPicker {
  return (slot, own) => {
    used?.add(slot);
    if (crossed?.slot === slot) return crossed.value;
    return own ?? caller.ids[slot];
  };
}

/** A fresh access token of `tenant`, for routes that end the session they are called with. */
async function freshToken(tenant: Tenant): Promise<string> {
  const session = await login(t.app, tenant.email, PASSWORD);
  return session.json().accessToken as string;
}

async function send(
  route: ServedRoute,
  request: InjectOptions,
  headers: { token?: string; tenant?: Tenant; waba?: string },
): Promise<LightMyRequestResponse> {
  let token = headers.token;
  if (token && headers.tenant && SESSION_ENDING.has(routeKey(route)))
    token = await freshToken(headers.tenant);
  return t.app.inject({
    ...request,
    headers: {
      ...(request.headers as Record<string, string>),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(headers.waba ? { 'x-waba-id': headers.waba } : {}),
    },
  });
}

const walked = () => routes.filter((route) => !(route.method in SKIPPED_METHODS));
const isPublic = (route: ServedRoute) => routeKey(route) in PUBLIC_ROUTES;
const isBusiness = (route: ServedRoute) => businessRoutes.has(routeKey(route));
const short = (response: LightMyRequestResponse) => `${response.statusCode} ${response.body.slice(0, 200)}`;

/** Slots a route's request uses (path, query and body), found by building it once. */
async function slotsOf(route: ServedRoute): Promise<Slot[]> {
  const used = new Set<Slot>();
  await buildRequest(route, doc, picker(B, undefined, used), context);
  return [...used];
}

beforeAll(async () => {
  t = await startTestApp();
  await listenForWebhooks(t);
  A = await createTenant(t, 'alphaqx', '0101');
  B = await createTenant(t, 'bravoqx', '0202');
  doc = t.app.swagger() as unknown as OpenApiDocument;
  routes = servedRoutes(t.app.printRoutes({ commonPrefix: false }));
  businessRoutes = new Set(
    t.app.businessRoutes.map((r) => routeKey({ method: r.method, path: r.url.replace(/:(\w+)/g, '{$1}') })),
  );
}, 60_000);
afterAll(() => t?.close());

describe('cross-tenant matrix (every served route)', () => {
  it('walks a route table that includes the auth, business and public routes', () => {
    const keys = walked().map(routeKey);
    expect(keys.length).toBeGreaterThan(25);
    expect(keys).toEqual(expect.arrayContaining(['GET /api/auth/wabas/', 'DELETE /recipient/{id}/']));
    const stale = Object.keys(PUBLIC_ROUTES).filter((key) => !keys.includes(key));
    expect(stale, 'PUBLIC_ROUTES names routes the app no longer serves').toEqual([]);
    for (const key of businessRoutes) {
      expect(keys, 'a business route is missing from the served table').toContain(key);
      expect(PUBLIC_ROUTES[key], `${key} is a business route`).toBeUndefined();
    }
  });

  it('fills every route: a path parameter, query id or body without a sample fails here', async () => {
    const unfilled: string[] = [];
    for (const route of walked().filter((r) => !isPublic(r))) {
      await slotsOf(route).catch((error: Error) => unfilled.push(error.message));
    }
    expect(unfilled).toEqual([]);
    // What a route added tomorrow with a parameter or a body nobody filled yet gets:
    await expect(
      buildRequest({ method: 'GET', path: '/recipient/{segment}/' }, doc, picker(B), context),
    ).rejects.toThrow('add a sample for :segment');
    await expect(
      buildRequest({ method: 'POST', path: '/recipient/merge/' }, doc, picker(B), context),
    ).rejects.toThrow('add a body sample for POST /recipient/merge/');
  });

  const snapshots = new Map<string, string>();

  it('positive control: A reads every GET route with its own ids, and each family shows A’s data', async () => {
    const failures: string[] = [];
    const familiesShowingA = new Set<string>();
    const families = new Set<string>();
    for (const route of walked().filter((r) => !isPublic(r) && r.method === 'GET')) {
      const family = familyOf(route);
      families.add(family);
      const request = await buildRequest(route, doc, picker(A), context);
      const response = await send(route, request, { token: A.accessToken, tenant: A, waba: A.wabaId });
      if (response.statusCode !== 200) failures.push(`${routeKey(route)} — A's own read: ${short(response)}`);
      if (leakedMarker(response.body, A.markers)) familiesShowingA.add(family);
      snapshots.set(routeKey(route), response.body);
    }
    for (const family of families) {
      if (!familiesShowingA.has(family)) failures.push(`${family} — no GET route shows A's own data to A`);
    }
    expect(failures).toEqual([]);
  });

  it('(c) no token → 401 on every route that is not public on purpose', async () => {
    const failures: string[] = [];
    for (const route of walked().filter((r) => !isPublic(r))) {
      const request = await buildRequest(route, doc, picker(A), context);
      const response = await send(route, request, { waba: A.wabaId });
      if (response.statusCode !== 401 || response.json().errors?.[0]?.field !== 'authorization') {
        failures.push(
          `${routeKey(route)} — (c) no token: expected 401 naming authorization (or list it in PUBLIC_ROUTES with why), got ${short(response)}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it("(a) B's token with A's X-WABA-ID (with B's ids, then A's) → 403/404 on business routes; never A's data", async () => {
    const failures: string[] = [];
    for (const route of walked().filter((r) => !isPublic(r))) {
      // On business routes B also names A's own objects, as if B were A in every way but the token.
      const owners = isBusiness(route) ? [B, A] : [B];
      for (const idsOf of owners) {
        const what = `${routeKey(route)} — (a) A's header with ${idsOf === A ? "A's" : "B's"} ids`;
        const request = await buildRequest(route, doc, picker(idsOf), context);
        const response = await send(route, request, { token: B.accessToken, tenant: B, waba: A.wabaId });
        const sent = idsOf === A ? sentValues(request) : [];
        const leaked = leakedMarker(
          response.body,
          A.markers.filter((marker) => !sent.includes(marker)),
        );
        if (leaked) failures.push(`${what}: answer shows A's "${leaked}"`);
        if (isBusiness(route) && ![403, 404].includes(response.statusCode)) {
          failures.push(`${what}: expected 403 or 404, got ${short(response)}`);
        }
        if (!isBusiness(route) && response.statusCode >= 500) failures.push(`${what}: ${short(response)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("(b) B's token and account with one of A's ids in the path, query or body → 403/404, never A's data", async () => {
    const failures: string[] = [];
    let crossings = 0;
    for (const route of walked().filter((r) => !isPublic(r))) {
      const slots = await slotsOf(route);
      if (slots.length === 0) {
        // No id to cross: B's own request must still show nothing of A.
        const request = await buildRequest(route, doc, picker(B), context);
        const response = await send(route, request, { token: B.accessToken, tenant: B, waba: B.wabaId });
        const leaked = leakedMarker(response.body, A.markers);
        if (leaked) failures.push(`${routeKey(route)} — (b) B's own request shows A's "${leaked}"`);
        if (response.statusCode >= 500)
          failures.push(`${routeKey(route)} — (b) B's own request: ${short(response)}`);
        continue;
      }
      for (const slot of slots) {
        crossings += 1;
        const crossedRequest = await buildRequest(
          route,
          doc,
          picker(B, { slot, value: A.ids[slot] }),
          context,
        );
        const crossed = await send(route, crossedRequest, {
          token: B.accessToken,
          tenant: B,
          waba: B.wabaId,
        });
        const what = `${routeKey(route)} — (b) A's ${slot} id`;
        // Echoing the id B itself sent (`Phone number 123 does not belong…`) reveals nothing.
        const sent = sentValues(crossedRequest);
        const leaked = leakedMarker(
          crossed.body,
          A.markers.filter((marker) => !sent.includes(marker)),
        );
        if (leaked) failures.push(`${what}: answer shows A's "${leaked}"`);
        if ([403, 404].includes(crossed.statusCode)) continue;
        // Otherwise the answer must be exactly the one for an id that names nothing (no existence oracle).
        const nowhereRequest = await buildRequest(
          route,
          doc,
          picker(B, { slot, value: NOWHERE[slot] }),
          context,
        );
        const nowhere = await send(route, nowhereRequest, {
          token: B.accessToken,
          tenant: B,
          waba: B.wabaId,
        });
        if (crossed.statusCode < 400 || crossed.statusCode >= 500) {
          failures.push(`${what}: expected 403 or 404, got ${short(crossed)}`);
        } else if (withoutEcho(crossed, crossedRequest) !== withoutEcho(nowhere, nowhereRequest)) {
          failures.push(
            `${what}: expected 403/404 or the answer for an unknown id (${short(nowhere)}), got ${short(crossed)}`,
          );
        }
      }
    }
    expect(crossings).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });

  it("A's data is unchanged after the matrix: every GET answer is the same as before", async () => {
    const changed: string[] = [];
    for (const route of walked().filter((r) => !isPublic(r) && r.method === 'GET')) {
      const request = await buildRequest(route, doc, picker(A), context);
      const response = await send(route, request, { token: A.accessToken, tenant: A, waba: A.wabaId });
      if (response.body !== snapshots.get(routeKey(route)))
        changed.push(`${routeKey(route)}: ${short(response)}`);
    }
    expect(changed).toEqual([]);
    const state = (await (await fetch(`${t.sandboxUrl}/__sandbox/state`)).json()) as {
      templates: Array<{ id: string; status: string }>;
    };
    expect(state.templates.find((tpl) => tpl.id === A.ids.metaTemplate)?.status).toBe('APPROVED');
  });

  it('positive control: A’s own write requests with the same samples succeed (2xx)', async () => {
    const order = ['POST', 'PUT', 'PATCH', 'DELETE'];
    const writes = walked()
      .filter((r) => !isPublic(r) && r.method !== 'GET')
      .sort((x, y) => order.indexOf(x.method) - order.indexOf(y.method));
    const failures: string[] = [];
    for (const route of writes) {
      const request = await buildRequest(route, doc, picker(A), context);
      const response = await send(route, request, { token: A.accessToken, tenant: A, waba: A.wabaId });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        failures.push(`${routeKey(route)} — A's own write: ${short(response)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** Every value the request carries in its path and JSON body (ids, names, codes), longest first. */
function sentValues(request: InjectOptions): string[] {
  const values = String(request.url).split('/').filter(Boolean);
  const collect = (value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number') values.push(String(value));
    else if (value && typeof value === 'object' && !Buffer.isBuffer(value))
      Object.values(value).forEach(collect);
  };
  collect(request.payload);
  return values.filter((value) => value.length > 0).sort((x, y) => y.length - x.length);
}

/** The answer with every value of its request replaced by one placeholder, to compare two answers' shapes. */
function withoutEcho(response: LightMyRequestResponse, request: InjectOptions): string {
  // Each answer names its own request (request_id): that differs by design, not by tenant.
  let body = response.body.replace(/"request_id":"[^"]*"/g, '"request_id":"<id>"');
  for (const value of sentValues(request)) body = body.split(value).join('<sent>');
  return `${response.statusCode} ${body}`;
}

/** `/meta/templates/{id}/` → `/meta/templates`; `/recipient/tags/` → `/recipient`; `/api/auth/…` → `/api/auth`. */
function familyOf(route: ServedRoute): string {
  const segments = route.path.split('/').filter(Boolean);
  return `/${segments.slice(0, ['meta', 'api'].includes(segments[0]!) ? 2 : 1).join('/')}`;
}
