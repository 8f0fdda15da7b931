import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * CORS stays closed (no Access-Control-Allow-Origin on any answer) unless CORS_ORIGINS names origins; then
 * exactly those may call the API from their pages. Herald's own web app is same-origin and needs none of
 * this. Sessions travel in the Authorization header, never in cookies, so credentials are not allowed.
 */
export async function registerCors(
  app: FastifyInstance,
  origins: readonly string[] | undefined,
): Promise<void> {
  if (!origins || origins.length === 0) return;
  await app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-WABA-ID'],
    // A 429's Retry-After tells a caller when to try again.
    exposedHeaders: ['Retry-After'],
    credentials: false,
    maxAge: 600,
  });
}
