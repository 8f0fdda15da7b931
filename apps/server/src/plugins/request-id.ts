import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

type FrameworkErrorHandler = NonNullable<FastifyServerOptions['frameworkErrors']>;

/** A caller's id is kept only when it is a plain token: it is echoed in a header and written to every log line. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's request id: the caller's `X-Request-Id` (a proxy's or a client's, so one id follows a request
 * across hops) when it is a sane token, else a fresh UUID. Fastify writes it as `reqId` on every log line.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Every answer carries `x-request-id`, and every error answer (a JSON object with a `detail`: the one error
 * shape, errors.ts) also carries it as `request_id`, so a user's report of an error leads to its log lines.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || !isErrorBody(payload) || 'request_id' in payload) return payload;
    return { ...payload, request_id: request.id };
  });
}

/** A malformed URL is answered before any hook runs: the wrapper gives that answer its `x-request-id` too. */
export function withRequestId(answer: FrameworkErrorHandler): FrameworkErrorHandler {
  return (error, request, reply) => {
    void reply.header('x-request-id', request.id);
    answer(error, request, reply);
  };
}

function isErrorBody(payload: unknown): payload is { detail: string } {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload) &&
    typeof (payload as { detail?: unknown }).detail === 'string'
  );
}
