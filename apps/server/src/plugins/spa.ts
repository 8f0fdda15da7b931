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
  '/readyz',
  '/metrics',
  '/docs',
];

/** Vite names everything under assets/ by its content hash: a new build gives new names, never new content. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** index.html (and any unhashed file) may be stored but must be revalidated, so a deploy shows at once. */
export const REVALIDATE_CACHE = 'no-cache';

function cacheControlFor(webDistDir: string, filePath: string): string {
  const relative = path.relative(webDistDir, filePath);
  return relative.startsWith(`assets${path.sep}`) ? IMMUTABLE_CACHE : REVALIDATE_CACHE;
}

/** What a request for a page asks for: a browser's HTML, any type (curl), or not a page at all. */
function pageRequest(request: FastifyRequest): 'html' | 'any' | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const pathname = request.url.split('?')[0] ?? '/';
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return null;
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/html')) return 'html';
  // `curl http://host/` asks for any type (or names none): a page's path gets the page. A path naming a file (a missing
  // script, an image) keeps its JSON 404, so a stale asset never loads HTML as a script.
  const lastSegment = pathname.split('/').at(-1) ?? '';
  return (accept === '' || accept.includes('*/*')) && !lastSegment.includes('.') ? 'any' : null;
}

/**
 * Serves the built web app from one port with the API: its assets as static files, and index.html for any
 * other page request (a browser's navigation, or curl asking for anything) so client-side routes (/customers,
 * /broadcast/new, …) load on refresh.
 * Every other unknown path gets a JSON 404.
 *
 * The build writes .br and .gz beside each asset (apps/web/vite.config.ts); `preCompressed` sends
 * the one the browser's Accept-Encoding allows (brotli first), else the plain file, without compressing per
 * request. Hashed assets are cached for a year; index.html is revalidated every time.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // @fastify/send would add its own `public, max-age=0`; the header is set per file below instead.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        res.setHeader('Cache-Control', cacheControlFor(webDistDir, filePath));
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
    // The same URL answers brotli, gzip or plain by Accept-Encoding, so a shared cache must keep them apart.
    // setHeaders can only write on the raw response, where a Vary that Fastify holds (CORS's `Origin`) would
    // replace it when the head is written: merge the two here.
    app.addHook('onSend', async (_request, reply, payload) => {
      const fromStatic = reply.raw.getHeader('vary');
      const fromReply = reply.getHeader('vary');
      if (typeof fromStatic === 'string' && fromReply !== undefined && fromReply !== fromStatic) {
        reply.header('vary', `${String(fromReply)}, ${fromStatic}`);
      }
      return payload;
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const page = pageRequest(request);
    if (page && hasBuild) return reply.type('text/html').sendFile('index.html');
    // Only a browser is told the app is not built; any other client gets the JSON 404 below.
    if (page === 'html') {
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
