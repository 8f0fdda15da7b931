import { type ErrorResponse, findUnsafeInput } from '@herald/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error';

function refuseUnsafe(value: unknown, location: string): void {
  const problem = findUnsafeInput(value, location);
  if (problem) throw HttpError.field(400, problem.field, problem.message);
}

/**
 * Applies the contracts' one input check (findUnsafeInput) to every route, so no route can forget it: text
 * holding U+0000 or a lone surrogate, or nesting past 32 levels, answers 400 naming the field
 * (`headers.x-waba-id`, `params.id`, `query.search`, `body.name`) before any handler, validator or query sees it.
 *
 * Headers, path and query are checked on request, before authentication: the account scope reads X-WABA-ID
 * in its own onRequest hook, and Postgres would refuse a NUL there. The body is checked once parsed, before
 * validation. Raw bodies (a webhook's bytes, checked against their signature first) are not walked; multipart
 * parts are read by their routes, which pass each field they use through the same check.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    refuseUnsafe(request.headers, 'headers');
    refuseUnsafe(request.params, 'params');
    refuseUnsafe(request.query, 'query');
  });
  app.addHook('preValidation', async (request) => {
    refuseUnsafe(request.body, 'body');
  });
}

const URL_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'The path is not valid: a %-escape is broken or not UTF-8' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A path parameter is longer than 100 characters' },
};

/**
 * Fastify's `frameworkErrors`: the URL problems its router meets before any route or hook runs (a path that
 * is not percent-encoded UTF-8, such as an encoded lone surrogate; a parameter past 100 characters), answered
 * in the one error shape, naming the path, instead of Fastify's own shape.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known = URL_ERRORS[error.code];
  if (!known) {
    request.log.error({ err: error }, 'router error');
    void reply.code(500).send({ detail: 'Internal server error' } satisfies ErrorResponse);
    return;
  }
  const body: ErrorResponse = {
    detail: known.message,
    message: known.message,
    errors: [{ field: 'path', message: known.message }],
  };
  void reply.code(known.status).send(body);
}
