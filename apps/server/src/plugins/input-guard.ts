import { findUnsafeInput } from '@herald/contracts';
import type { FastifyInstance } from 'fastify';
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
