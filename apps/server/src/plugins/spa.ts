import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ErrorResponse } from '@herald/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// Paths that belong to the API even when no route matches: they answer JSON, never the SPA's HTML.
const API_PREFIXES = [
  '/api/',
  '/meta/',
  '/recipient/',
  '/broadcast/create',
  '/webhooks/',
  '/healthz',
  '/docs',
];

function wantsSpa(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the built web app from one port with the API: its assets as static files, and index.html for any
 * other browser navigation so client-side routes (/customers, /broadcast/new, …) load on refresh.
 * Every other unknown path gets a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (wantsSpa(request)) {
      if (hasBuild) return reply.type('text/html').sendFile('index.html');
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm start` (it builds it) or `npm run build -w apps/web`.');
    }
    const detail = `Not found: ${request.method} ${request.url.split('?')[0]}`;
    const body: ErrorResponse = { detail, message: detail, errors: [{ field: 'path', message: detail }] };
    return reply.code(404).send(body);
  });
}
