import type { FastifyRequest } from 'fastify';

/**
 * An absolute link to another page of the list this request reads (DRF-style `next`/`previous`): the same
 * path with exactly the given query parameters, in that order; undefined or empty values are left out.
 */
export function pageUrl(
  request: FastifyRequest,
  params: Record<string, string | number | undefined>,
): string {
  const url = new URL(request.url.split('?')[0] ?? '/', `${request.protocol}://${request.host}`);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  return url.toString();
}
