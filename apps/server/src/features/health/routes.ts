import { HealthResponseSchema } from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Pool } from '../../db/pool';

/** `GET /healthz`: 200 when the database answers, 503 otherwise; also tells when the worker last beat. */
export function healthRoutes(pool: Pool): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and database check',
          response: { 200: HealthResponseSchema, 503: HealthResponseSchema },
        },
      },
      async (_request, reply) => {
        try {
          const result = await pool.query<{ beat_at: Date | null }>(
            'select max(beat_at) as beat_at from worker_heartbeats',
          );
          const beatAt = result.rows[0]?.beat_at ?? null;
          return {
            status: 'ok' as const,
            database: 'up' as const,
            last_worker_heartbeat: beatAt ? beatAt.toISOString() : null,
          };
        } catch (error) {
          reply.log.warn({ err: error }, 'health check: database unavailable');
          // Recovers by itself: the pool drops broken connections and opens new ones once Postgres is back.
          return reply
            .code(503)
            .header('retry-after', '5')
            .send({ status: 'unavailable', database: 'down', last_worker_heartbeat: null });
        }
      },
    );
  };
}
