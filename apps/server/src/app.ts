import { trackedLinkPrefix } from '@herald/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { type Config, requireSecrets } from './config';
import type { Pool } from './db/pool';
import { readSendingStop } from './features/account-health/index';
import { AuthService } from './features/auth/auth-service';
import { BroadcastsService } from './features/broadcasts/broadcasts-service';
import { broadcastsRoutes } from './features/broadcasts/routes';
import { testSendRoutes } from './features/broadcasts/test-send-routes';
import { authRoutes } from './features/auth/routes';
import { ContactsService } from './features/contacts/contacts-service';
import { contactsRoutes } from './features/contacts/routes';
import { DashboardService } from './features/dashboard/dashboard-service';
import { dashboardRoutes } from './features/dashboard/routes';
import { healthRoutes } from './features/health/routes';
import { HeraldMetrics } from './features/metrics/metrics-registry';
import { NumbersService } from './features/numbers/numbers-service';
import { settingsRoutes } from './features/settings/routes';
import { marketingMessagesRoutes, MmApiService } from './features/marketing-messages/index';
import { linkRedirectRoutes, linkSettingsRoutes } from './features/link-clicks/index';
import { segmentsRoutes, SegmentsService } from './features/segments/index';
import { MetaFiguresService } from './features/pricing/meta-figures';
import { PricingService } from './features/pricing/pricing-service';
import { loadRateCard } from './features/pricing/rate-card';
import { pricingRoutes } from './features/pricing/routes';
import { SettingsService } from './features/settings/settings-service';
import { numbersRoutes } from './features/numbers/routes';
import { templatesRoutes } from './features/templates/routes';
import { TemplateClicksService, templateClicksRoutes } from './features/templates/template-clicks';
import { TemplatesService } from './features/templates/templates-service';
import { templateSyncRoutes } from './features/templates/templates-sync';
import { webhookRoutes } from './features/webhooks/routes';
import { createWebhookProcessor } from './webhook-handlers';
import type { WebhookProcessor } from './features/webhooks/webhook-processor';
import { GraphClient } from './graph/graph-client';
import { graphVersionWarning } from './graph/graph-versions';
import { authenticate } from './plugins/authentication';
import { registerErrorHandler } from './plugins/error-handler';
import { answerFrameworkError, registerInputGuard } from './plugins/input-guard';
import { registerCors } from './plugins/cors';
import { registerMetrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { registerRequestId, requestId, withRequestId } from './plugins/request-id';
import {
  fixedSecurityHeaders,
  registerSecurityHeaders,
  withSecurityHeaders,
} from './plugins/security-headers';
import { registerSpa } from './plugins/spa';
import { registerBusinessRoutes } from './plugins/waba-scope';
import { heraldLoggerOptions, type LogDestination } from './security/log-redaction';
import { SecretBox } from './security/secret-box';
import { TokenIssuer } from './security/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    /** Applies stored Cloud API webhooks; features register their handlers on it by `field`. */
    webhooks: WebhookProcessor;
  }
}

export interface AppDependencies {
  config: Config;
  pool: Pool;
  /** Pass false in tests to keep their output quiet, or a stream to read what would be logged. */
  logger?: boolean | LogDestination;
}

/** Builds the whole HTTP app without listening: tests inject requests or listen on port 0 themselves. */
export async function buildApp({ config, pool, logger = true }: AppDependencies): Promise<FastifyInstance> {
  const secrets = requireSecrets(config);
  const securityHeaders = await fixedSecurityHeaders(config);
  const app = Fastify({
    logger: logger ? heraldLoggerOptions(config.LOG_LEVEL, logger === true ? undefined : logger) : false,
    trustProxy: config.TRUST_PROXY,
    genReqId: requestId,
    // Never let a hung client hold a socket forever, yet leave a 100 MB contact import (read only as fast as
    // it is imported) the minutes it needs.
    requestTimeout: 10 * 60_000,
    bodyLimit: 1024 * 1024,
    // A malformed URL is answered before any hook runs: the wrapper adds the security headers itself.
    frameworkErrors: withRequestId(
      withSecurityHeaders(securityHeaders, answerFrameworkError, {
        trustProxy: config.TRUST_PROXY,
      }),
    ),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First, so that every answer (routes, 404s, errors) carries the headers.
  registerSecurityHeaders(app, securityHeaders);
  await registerCors(app, config.CORS_ORIGINS);
  registerRequestId(app);
  registerMetrics(app, { metrics: new HeraldMetrics(pool), token: config.METRICS_TOKEN });
  registerErrorHandler(app);
  registerInputGuard(app);
  await registerOpenApi(app);

  const versionWarning = graphVersionWarning(config.GRAPH_API_VERSION, new Date());
  if (versionWarning) app.log.warn(versionWarning);
  const graph = new GraphClient({
    baseUrl: config.graphApiBase,
    version: config.GRAPH_API_VERSION,
    appId: config.META_APP_ID,
    appSecret: config.META_APP_SECRET,
  });
  const secretBox = new SecretBox(secrets.encryptionKey);
  const tokens = new TokenIssuer(
    secrets.jwtSecret,
    config.ACCESS_TOKEN_TTL_SECONDS,
    config.REFRESH_TOKEN_TTL_SECONDS,
  );
  const auth = new AuthService({ pool, graph, tokens, secrets: secretBox });
  const requireUser = authenticate(tokens, pool);
  // Read and checked before anything listens: a malformed card stops the start naming its file and row.
  const rateCard = loadRateCard(config.RATE_CARD_FILE);
  const webhooks = createWebhookProcessor(pool, app.log);
  app.decorate('webhooks', webhooks);
  app.addHook('onClose', () => webhooks.stop());

  await app.register(healthRoutes(pool));
  await app.register(authRoutes({ auth, authenticate: requireUser, config }));
  await app.register(
    webhookRoutes({
      pool,
      processor: webhooks,
      appSecret: config.META_APP_SECRET,
      verifyToken: config.WEBHOOK_VERIFY_TOKEN,
    }),
  );
  await app.register(linkRedirectRoutes({ pool, secrets: secretBox }));
  await registerBusinessRoutes(app, { authenticate: requireUser, auth }, async (scope) => {
    await scope.register(numbersRoutes(new NumbersService({ pool, graph, secrets: secretBox })));
    await scope.register(
      contactsRoutes(new ContactsService({ pool }), { importMaxBytes: config.IMPORT_MAX_BYTES }),
    );
    await scope.register(templatesRoutes(new TemplatesService({ pool, graph, secrets: secretBox })));
    await scope.register(templateSyncRoutes({ pool, graph, secrets: secretBox }));
    await scope.register(
      templateClicksRoutes(new TemplateClicksService({ pool, graph, secrets: secretBox })),
    );
    await scope.register(
      broadcastsRoutes(
        new BroadcastsService({
          pool,
          sendingStop: (accountId) => readSendingStop(pool, accountId),
          trackedLinkPrefix: trackedLinkPrefix(config.publicUrl),
        }),
      ),
    );
    await scope.register(
      testSendRoutes({
        pool,
        secrets: secretBox,
        graphApiBase: config.graphApiBase,
        graphApiVersion: config.GRAPH_API_VERSION,
        trackedLinkPrefix: trackedLinkPrefix(config.publicUrl),
      }),
    );
    await scope.register(
      pricingRoutes(
        new PricingService(pool, rateCard),
        new MetaFiguresService({ pool, graph, secrets: secretBox }),
      ),
    );
    await scope.register(dashboardRoutes(new DashboardService(pool), pool));
    await scope.register(
      settingsRoutes(new SettingsService({ pool, mailServerConfigured: Boolean(config.SMTP_URL) })),
    );
    await scope.register(linkSettingsRoutes(config.publicUrl));
    await scope.register(segmentsRoutes(new SegmentsService(pool)));
    await scope.register(marketingMessagesRoutes(new MmApiService({ pool, graph, secrets: secretBox })));
  });

  await registerSpa(app, config.webDistDir);
  return app;
}
