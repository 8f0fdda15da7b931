import type { FastifyRequest } from 'fastify';

/** Graph takes parameters from the query string and the body alike (JSON or form-encoded). */
export function requestParams(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  // Raw upload bytes arrive as a Buffer, which carries no parameters.
  const body =
    request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body)
      ? request.body
      : {};
  return { ...query, ...(body as Record<string, unknown>) };
}

export function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}
