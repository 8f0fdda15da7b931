import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Pool } from '../../db/pool';
import { registerMetrics } from '../../plugins/metrics';
import { registerRequestId, requestId } from '../../plugins/request-id';
import { heraldLoggerOptions } from '../../security/log-redaction';
import { HeraldMetrics } from '../metrics/index';
import { healthRoutes } from './routes';

export interface WorkerHttp {
  /** The worker's pino logger (JSON lines), also used for its own messages. */
  log: FastifyBaseLogger;
  /** Listens on `port` (0: any free port); answers the URL. */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * The worker's own small HTTP server (`herald work`, WORKER_PORT): /healthz, /readyz and /metrics, so an
 * orchestrator probes and Prometheus scrapes a worker the way it does an API process (decision 044).
 */
export async function buildWorkerHttp(options: {
  pool: Pool;
  logLevel: string;
  metricsToken?: string;
}): Promise<WorkerHttp> {
  const app: FastifyInstance = Fastify({
    logger: heraldLoggerOptions(options.logLevel),
    genReqId: requestId,
    // Probes and scrapes are small and quick: a slow client must not hold a socket.
    requestTimeout: 30_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestId(app);
  registerMetrics(app, { metrics: new HeraldMetrics(options.pool), token: options.metricsToken });
  await app.register(healthRoutes(options.pool));
  await app.ready();
  return {
    log: app.log,
    listen: (host, port) => app.listen({ host, port }),
    close: () => app.close(),
  };
}
