import type { ErrorResponse } from '@herald/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/database-unavailable';
import { HttpError } from '../http-error';

/** Seconds a client is asked to wait while the database is away (a restart takes a few). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

function fieldName(context: string | undefined, instancePath: string): string {
  const inner = instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
  return inner || context || 'request';
}

/**
 * The one error handler: validation problems → 400 naming each field, client errors keep their status with
 * a plain message, a database that is away → 503 with Retry-After, anything else → 500 with a generic detail (the stack stays in the log, never the answer).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        field: fieldName(error.validationContext, issue.instancePath),
        message: issue.message ?? 'Invalid value',
      }));
      const detail = `Invalid request: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
      const body: ErrorResponse = { detail, message: detail, errors };
      return reply.code(400).send(body);
    }
    if (error instanceof HttpError) {
      const body: ErrorResponse = {
        detail: error.message,
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
      };
      if (error.headers) void reply.headers(error.headers);
      return reply.code(error.statusCode).send(body);
    }
    if (isDatabaseUnavailable(error)) {
      // A database restart or failover is not the request's fault: 503 tells clients to come back.
      request.log.warn({ err: error }, 'database unavailable');
      const body: ErrorResponse = {
        detail: DATABASE_UNAVAILABLE_MESSAGE,
        message: DATABASE_UNAVAILABLE_MESSAGE,
      };
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type): their messages are safe.
      const field = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : 'body';
      const body: ErrorResponse = {
        detail: error.message,
        message: error.message,
        errors: [{ field, message: error.message }],
      };
      return reply.code(status).send(body);
    }
    request.log.error({ err: error }, 'unhandled error');
    const body: ErrorResponse = { detail: 'Internal server error' };
    return reply.code(500).send(body);
  });
}
