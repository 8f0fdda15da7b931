import { LivenessResponseSchema, ReadinessResponseSchema } from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Pool } from '../../db/pool';
import { ReadinessCheck } from './readiness';

/**
 * `GET /healthz` (alive: no database, so an orchestrator never restarts every process during a database
 * outage) and `GET /readyz` (database reachable and migrations current, else 503 with the reason, so a load
 * balancer sends nothing here meanwhile). The API and the worker (`herald work`, WORKER_PORT) both serve them.
 */
export function healthRoutes(pool: Pool): FastifyPluginAsyncZod {
  return async (app) => {
    const readiness = new ReadinessCheck(pool);
    app.get(
      '/healthz',
      {
        // Probes come every few seconds from every balancer: their lines would drown the log.
        logLevel: 'warn',
        schema: {
          tags: ['health'],
          summary: 'Liveness: the process answers (the database is not checked)',
          response: { 200: LivenessResponseSchema },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/readyz',
      {
        logLevel: 'warn',
        schema: {
          tags: ['health'],
          summary: 'Readiness: database reachable and every shipped migration applied',
          response: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
        },
      },
      async (_request, reply) => {
        const answer = await readiness.check();
        if (answer.status === 'ok') return answer;
        reply.log.warn({ reason: answer.reason }, 'not ready');
        // Recovers by itself: the pool drops broken connections and opens new ones once Postgres is back.
        return reply.code(503).header('retry-after', '5').send(answer);
      },
    );
  };
}
