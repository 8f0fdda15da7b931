import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { IMMUTABLE_CACHE, REVALIDATE_CACHE } from './spa';

// The built web app is sent precompressed (brotli, else gzip, else plain, by Accept-Encoding) with a
// year of caching for hashed assets and revalidation for index.html, and keeps the security headers.

const ASSET = '/assets/index-Ab12Cd34.js';
const SMALL_ASSET = '/assets/tiny-Ef56Gh78.js';
// Large enough to be worth compressing, and recognisable once decompressed.
const SCRIPT = `console.log(${JSON.stringify('herald '.repeat(400))});\n`;
const PARTNER = 'https://partner.example';

let webDist: string;
let herald: TestApp;

beforeAll(async () => {
  webDist = await mkdtemp(path.join(os.tmpdir(), 'herald-spa-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(
    path.join(webDist, 'index.html'),
    `<!doctype html><html><head><script type="module" src="${ASSET}"></script></head><body></body></html>`,
  );
  const asset = path.join(webDist, ASSET);
  await writeFile(asset, SCRIPT);
  await writeFile(`${asset}.br`, brotliCompressSync(SCRIPT));
  await writeFile(`${asset}.gz`, gzipSync(SCRIPT));
  // Below the build's compression threshold: no .br or .gz beside it.
  await writeFile(path.join(webDist, SMALL_ASSET), 'console.log(1);');
  herald = await startTestApp({ WEB_DIST_DIR: webDist, CORS_ORIGINS: PARTNER });
});

afterAll(async () => {
  await herald?.close();
  await rm(webDist, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string>) {
  return herald.app.inject({ method: 'GET', url, headers });
}

describe('hashed assets', () => {
  it('sends the brotli file when the browser accepts br, cached for a year', async () => {
    const response = await get(ASSET, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('sends the gzip file when the browser accepts only gzip', async () => {
    const response = await get(ASSET, { 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('sends the plain file without Accept-Encoding', async () => {
    const response = await get(ASSET, {});
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('sends the plain file when no compressed sibling was written', async () => {
    const response = await get(SMALL_ASSET, { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log(1);');
    expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('keeps the Content-Security-Policy and the other security headers', async () => {
    const response = await get(ASSET, { 'accept-encoding': 'br' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a missing asset with a JSON 404, not the app', async () => {
    const response = await get('/assets/index-gone.js', { 'accept-encoding': 'br', accept: '*/*' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).not.toBe(IMMUTABLE_CACHE);
  });
});

describe('index.html', () => {
  it.each(['/', '/customers', '/broadcast/new'])(
    'is revalidated on every visit of %s, with the security headers',
    async (url) => {
      const response = await get(url, { accept: 'text/html', 'accept-encoding': 'br, gzip' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(ASSET);
      expect(response.headers['cache-control']).toBe(REVALIDATE_CACHE);
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    },
  );
});

describe('a request without a browser', () => {
  it.each([
    ['curl', '*/*'],
    ['no Accept', undefined],
  ])('gets the app on a page path (%s)', async (_who, accept) => {
    for (const url of ['/', '/customers']) {
      const response = await get(url, accept ? { accept } : {});
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain(ASSET);
    }
  });

  it('gets a JSON 404 for a file that is not there and for an unknown API path', async () => {
    for (const url of ['/favicon-gone.png', '/api/nothing-here']) {
      const response = await get(url, { accept: '*/*' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ errors: [{ field: 'path' }] });
    }
  });
});
