import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { HSTS_VALUE } from '../plugins/security-headers';

// The headers every answer carries (SPA, assets, API answers and errors, /docs, /openapi.json, webhooks),
// CORS closed unless configured, HSTS only over HTTPS. The browser side (no CSP violation while the app,
// Swagger UI and the Embedded Signup popup work) is e2e/security-headers.spec.ts.

const PARTNER = 'https://partner.example';
const STRANGER = 'https://evil.example';

let webDist: string;
let plain: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'herald-headers-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
  );
  await writeFile(path.join(webDist, 'assets/app.js'), 'console.log("herald");');
  plain = await startTestApp({ WEB_DIST_DIR: webDist });
  proxied = await startTestApp({ WEB_DIST_DIR: webDist, TRUST_PROXY: 'true', CORS_ORIGINS: PARTNER });
});

afterAll(async () => {
  await plain?.close();
  await proxied?.close();
  await rm(webDist, { recursive: true, force: true });
});

function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header, 'Content-Security-Policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name ?? '', sources]),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse, sandboxOrigin: string): void {
  const csp = directives(response);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'", sandboxOrigin]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('frame-src')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(["'self'"]);
  const sources = [...csp.values()].flat();
  expect(sources.filter((source) => source.includes('*'))).toEqual([]);
  expect(sources).not.toContain("'unsafe-eval'");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  expect(response.headers['strict-transport-security']).toBeUndefined();
  expect(response.headers['access-control-allow-origin']).toBeUndefined();
}

const html = { accept: 'text/html,application/xhtml+xml' };

describe('security headers on every answer', () => {
  const cases: { name: string; method: 'GET' | 'POST'; url: string; status: number; headers?: object }[] = [
    { name: 'the SPA index', method: 'GET', url: '/customers', status: 200, headers: html },
    { name: 'an SPA asset', method: 'GET', url: '/assets/app.js', status: 200 },
    { name: 'an API answer', method: 'GET', url: '/api/auth/signup-config/', status: 200 },
    { name: 'an API error (no session)', method: 'GET', url: '/api/auth/wabas/', status: 401 },
    { name: 'an API validation error', method: 'POST', url: '/api/auth/login/', status: 400 },
    { name: 'an unknown API path', method: 'GET', url: '/api/nothing-here', status: 404 },
    { name: 'a malformed URL', method: 'GET', url: '/api/%E0%A4%A', status: 400 },
    { name: 'the Swagger UI page', method: 'GET', url: '/docs', status: 200 },
    { name: 'a Swagger UI script', method: 'GET', url: '/docs/static/swagger-initializer.js', status: 200 },
    { name: 'a Swagger UI redirect', method: 'GET', url: '/docs/static/index.html', status: 302 },
    { name: 'the OpenAPI document', method: 'GET', url: '/openapi.json', status: 200 },
    { name: 'a refused webhook verification', method: 'GET', url: '/webhooks/whatsapp', status: 403 },
  ];

  it('gives a malformed URL (answered before any hook) exactly the headers of any other answer', async () => {
    const securityHeaders = (response: LightMyRequestResponse) =>
      Object.fromEntries(
        Object.entries(response.headers).filter(
          // The request id, like the date, differs from one answer to the next (both carry one).
          ([name]) =>
            !['content-type', 'content-length', 'date', 'connection', 'x-request-id'].includes(name),
        ),
      );
    const normal = await plain.app.inject({ method: 'GET', url: '/api/nothing-here' });
    const malformed = await plain.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(securityHeaders(normal)).length).toBeGreaterThanOrEqual(8);
    expect(securityHeaders(malformed)).toEqual(securityHeaders(normal));
  });

  for (const { name, method, url, status, headers } of cases) {
    it(`on ${name} (${method} ${url})`, async () => {
      const response = await plain.app.inject({
        method,
        url,
        headers: { ...headers },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode).toBe(status);
      expectSecurityHeaders(response, new URL(plain.sandboxUrl).origin);
    });
  }
});

describe('CORS', () => {
  it('stays closed by default: no Access-Control-Allow-Origin, even for a preflight', async () => {
    const simple = await plain.app.inject({
      method: 'GET',
      url: '/api/auth/signup-config/',
      headers: { origin: PARTNER },
    });
    expect(simple.statusCode).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await plain.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login/',
      headers: { origin: PARTNER, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('opens to the CORS_ORIGINS origins only', async () => {
    const allowed = await proxied.app.inject({
      method: 'GET',
      url: '/api/auth/signup-config/',
      headers: { origin: PARTNER },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

    const refused = await proxied.app.inject({
      method: 'GET',
      url: '/api/auth/signup-config/',
      headers: { origin: STRANGER },
    });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await proxied.app.inject({
      method: 'OPTIONS',
      url: '/meta/customer/',
      headers: {
        origin: PARTNER,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'authorization,x-waba-id',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('DELETE');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('x-waba-id');

    const strangerPreflight = await proxied.app.inject({
      method: 'OPTIONS',
      url: '/meta/customer/',
      headers: { origin: STRANGER, 'access-control-request-method': 'DELETE' },
    });
    expect(strangerPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('HSTS', () => {
  it('is sent behind a trusted proxy that received HTTPS', async () => {
    const response = await proxied.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { ...html, 'x-forwarded-proto': 'https' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const error = await proxied.app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(error.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const malformed = await proxied.app.inject({
      method: 'GET',
      url: '/api/%E0%A4%A',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(malformed.headers['strict-transport-security']).toBe(HSTS_VALUE);
  });

  it('is not sent over plain HTTP, behind the proxy or not', async () => {
    const proxiedHttp = await proxied.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { ...html, 'x-forwarded-proto': 'http' },
    });
    expect(proxiedHttp.headers['strict-transport-security']).toBeUndefined();
    const direct = await proxied.app.inject({ method: 'GET', url: '/customers', headers: html });
    expect(direct.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignores X-Forwarded-Proto when TRUST_PROXY is off (anyone could send it)', async () => {
    const response = await plain.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { ...html, 'x-forwarded-proto': 'https' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
