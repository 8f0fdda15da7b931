import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HeraldMetrics } from '../features/metrics/metrics-registry';

/** The contact import's route: its 201 answer carries the rows it wrote (counted here, where it finishes). */
const IMPORT_ROUTE = '/recipient/import/';

const isLoopback = (address: string | undefined) =>
  address !== undefined && (/^(::ffff:)?127\./.test(address) || address === '::1');

/**
 * Who may read /metrics: the holder of METRICS_TOKEN (Bearer), or a caller on this machine. A request that
 * came through a proxy (X-Forwarded-For / Forwarded) is never "this machine", whatever the socket says, so a
 * reverse proxy on the same host does not make the metrics public by accident.
 */
function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && isLoopback(request.socket.remoteAddress);
}

function refuse(reply: FastifyReply, token: string | undefined) {
  const detail = token
    ? 'Metrics need the METRICS_TOKEN bearer token'
    : 'Metrics are served only on this machine (set METRICS_TOKEN to read them from elsewhere)';
  if (token) void reply.header('www-authenticate', 'Bearer');
  return reply
    .code(token ? 401 : 403)
    .send({ detail, errors: [{ field: 'authorization', message: detail }] });
}

/**
 * HTTP metrics for every answer (by route pattern, never the raw URL, so ids do not explode the series), import
 * rows when an import finishes, and `GET /metrics` in Prometheus's text format (decision 044).
 */
export function registerMetrics(
  app: FastifyInstance,
  options: { metrics: HeraldMetrics; token?: string },
): void {
  const { metrics, token } = options;
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? '(unmatched)',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (
      request.routeOptions.url === IMPORT_ROUTE &&
      reply.statusCode === 201 &&
      typeof payload === 'string'
    ) {
      const result = JSON.parse(payload) as { created?: number; updated?: number };
      metrics.countImportRows(result.created ?? 0, result.updated ?? 0);
    }
    return payload;
  });
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    if (!mayReadMetrics(request, token)) return refuse(reply, token);
    return reply.type(metrics.contentType).send(await metrics.scrape());
  });
}
