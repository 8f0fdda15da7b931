import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Pool } from './db/pool';
import { healthRoutes } from './features/health/routes';
import { registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerSpa } from './plugins/spa';

export interface AppDependencies {
  config: Pick<Config, 'LOG_LEVEL' | 'webDistDir'>;
  pool: Pool;
  /** Pass false in tests to keep their output quiet. */
  logger?: boolean;
}

/** Builds the whole HTTP app without listening: tests inject requests or listen on port 0 themselves. */
export async function buildApp({ config, pool, logger = true }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: config.LOG_LEVEL } : false,
    // Production sits behind a proxy that may retry; never let a hung client hold a socket forever.
    requestTimeout: 30_000,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await registerOpenApi(app);

  await app.register(healthRoutes(pool));

  await registerSpa(app, config.webDistDir);
  return app;
}
