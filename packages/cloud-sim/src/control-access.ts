import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphError, graphErrorBody } from './errors';

const CONTROL_PREFIX = '/__sandbox/';

const isLoopback = (address: string | undefined) =>
  address !== undefined && (/^(::ffff:)?127\./.test(address) || address === '::1');

/** By the route it matched and by its decoded path, so no spelling of the path (%5F_sandbox) slips past. */
function isControlRequest(request: FastifyRequest): boolean {
  if (request.routeOptions.url?.startsWith(CONTROL_PREFIX)) return true;
  const path = (request.url.split('?')[0] ?? '').toLowerCase();
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: judged as written.
  }
  return path.startsWith(CONTROL_PREFIX) || decoded.replace(/\/{2,}/g, '/').startsWith(CONTROL_PREFIX);
}

function hasToken(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Who may use the control API (`/__sandbox/*`: reset, state, config, fault injection), as Herald guards
 * /metrics: with a token configured, only its Bearer holders, wherever they call from; without one, only
 * callers on this machine. A request that came through a proxy (X-Forwarded-For / Forwarded) is never "this
 * machine", whatever the socket says, so a reverse proxy on the same host does not open it by accident. The
 * Graph API and the Embedded Signup popup are not concerned: browsers and Herald need them from elsewhere.
 */
export function registerControlAccess(app: FastifyInstance, token: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isControlRequest(request)) return;
    if (token) {
      if (hasToken(request, token)) return;
      const error = new GraphError(
        401,
        190,
        'The sandbox control API needs the SANDBOX_CONTROL_TOKEN bearer token',
      );
      return reply.code(401).header('www-authenticate', 'Bearer').send(graphErrorBody(error));
    }
    const proxied =
      request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (!proxied && isLoopback(request.socket.remoteAddress)) return;
    const error = new GraphError(
      403,
      10,
      'The sandbox control API answers only on this machine (set SANDBOX_CONTROL_TOKEN to use it from elsewhere)',
    );
    return reply.code(403).send(graphErrorBody(error));
  });
}
