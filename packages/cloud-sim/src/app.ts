import { dirname } from 'node:path';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance } from 'fastify';
import { authenticate, visibleNodeType } from './auth';
import { CallLog } from './call-log';
import { type LogStream, sandboxLoggerOptions } from './logger-options';
import type { SandboxConfig, SandboxContext } from './context';
import { GraphError, graphErrorBody, nonexistingField, unknownError, unsupportedRequest } from './errors';
import { registerBsuidControlRoutes } from './routes/bsuid-control';
import { registerClockControlRoutes } from './routes/clock-control';
import { registerControlAccess } from './control-access';
import { registerControlRoutes } from './routes/control';
import { registerEmbeddedSignupRoutes } from './routes/embedded-signup';
import { registerLinkClickControlRoutes } from './routes/link-click-control';
import { Messaging } from './messages/messaging';
import { registerMessageTemplateRoutes } from './routes/message-templates';
import { registerMarketingMessagesRoutes } from './routes/marketing-messages';
import { registerMarketingMessagesControlRoutes } from './routes/marketing-messages-control';
import { registerMediaRoutes } from './routes/media';
import { registerMessageRoutes } from './routes/messages';
import { registerMessagingControlRoutes } from './routes/messaging-control';
import { registerNodeRoutes } from './routes/nodes';
import { registerOauthRoutes } from './routes/oauth';
import { registerPortfolioControlRoutes } from './routes/portfolio-control';
import { registerPhoneNumberControlRoutes } from './routes/phone-number-control';
import { registerPhoneNumberRoutes } from './routes/phone-numbers';
import { registerRecipientControlRoutes } from './routes/recipient-control';
import { registerPricingAnalyticsRoutes } from './routes/pricing-analytics';
import { registerSubscribedAppsRoutes } from './routes/subscribed-apps';
import { registerTemplateAnalyticsRoutes } from './routes/template-analytics';
import { registerUploadRoutes } from './routes/uploads';
import { registerWebhookEventControlRoutes } from './routes/webhook-event-control';
import { checkMessagingLimit, checkWebhookUrl, MESSAGING_DEFAULTS } from './sandbox-config';
import { captureState, restoreState } from './persistence/state-document';
import { StatePersistence } from './persistence/state-persistence';
import { SandboxState } from './state';
import { stripGraphVersion } from './graph-version';
import { runAutomaticReview } from './templates/automatic-review';
import { ReviewScheduler } from './templates/review-scheduler';
import { WebhookSender } from './webhooks/webhook-sender';
import {
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_RETRY_MAX_WAIT_MS,
  META_WEBHOOK_MAX_AGE_MS,
} from './webhooks/retry-policy';
import { webhookTarget } from './webhooks/webhook-target';

export interface SandboxOptions {
  appId?: string;
  appSecret?: string;
  /** Append-only JSONL record of state-changing calls; none is written when absent. */
  logFile?: string;
  /**
   * Where the state is kept across restarts (state.json, uploads/); by default the folder of `logFile`.
   * null, or neither option: memory only, as tests want.
   */
  stateDir?: string | null;
  /** How soon after a change the state is written (default 1000 ms); changes in between share the write. */
  snapshotDelayMs?: number;
  /** The sandbox's own base URL as browsers reach it; by default taken from each request's Host. */
  publicUrl?: string;
  /** true: Fastify's request log on stdout, with secrets masked; a stream: the same lines there. */
  logger?: boolean | LogStream;
  /** How long a new or edited template stays PENDING before the automatic review (default 2000). */
  reviewDelayMs?: number;
  /** Herald's webhook endpoint, e.g. http://127.0.0.1:3000/webhooks/whatsapp; none → nothing is sent. */
  webhookUrl?: string;
  /** Wait before the first webhook retry; each later wait doubles (default 500). */
  webhookRetryBaseMs?: number;
  /** The longest wait between two webhook attempts (default 1 hour). */
  webhookRetryMaxWaitMs?: number;
  /** A webhook not taken this long after its first attempt is given up (default 7 days, Meta's). */
  webhookRetryMaxAgeMs?: number;
  /** Webhook attempts in all, the first included (default none: only the max age ends the retries). */
  webhookMaxAttempts?: number | null;
  /** When sent / delivered / read statuses follow an accepted message (default 100 / 300 / 800 ms). */
  statusDelaysMs?: { sent: number; delivered: number; read: number };
  /** Share of accepted messages delivered (default 1). */
  deliveredRate?: number;
  /** Share of delivered messages read (default 0.6). */
  readRate?: number;
  /** Statuses in one webhook POST at most, under load (default 100; see StatusEmitter). */
  webhookBatchSize?: number;
  /** Statuses due within this window share a POST (default 50 ms). */
  webhookBatchWindowMs?: number;
  /** The messaging limit tier a new business portfolio starts with (default TIER_250). */
  defaultMessagingLimit?: string;
  /** Marketing templates to US numbers fail with 131049, as Meta's (default true). */
  usMarketingRule?: boolean;
  /** A new business accepts the Marketing Messages API terms in its Embedded Signup (default true). */
  mmApiTermsAtSignup?: boolean;
  /**
   * Bearer token the control API (`/__sandbox/*`) requires of every caller; unset, it answers only callers on
   * this machine that came through no proxy (control-access.ts).
   */
  controlToken?: string;
  /**
   * Tests only, and only in the test's own process (no variable or control setting turns it on): `GET
   * /__sandbox/state` shows registration PINs and OAuth codes in clear, for tests that check what Herald
   * registered and spent. Everywhere else they are masked: such a PIN resets a Herald password.
   */
  revealSecretsInState?: boolean;
}

export const DEFAULT_APP_ID = 'herald-sandbox-app';
export const DEFAULT_APP_SECRET = 'herald-sandbox-secret';
export const DEFAULT_REVIEW_DELAY_MS = 2000;
/** Raw upload chunks may carry a whole 100 MB document plus headroom. */
const UPLOAD_BODY_LIMIT = 110 * 1024 * 1024;

function initialConfig(options: SandboxOptions): SandboxConfig {
  return {
    reviewDelayMs: options.reviewDelayMs ?? DEFAULT_REVIEW_DELAY_MS,
    webhookUrl: checkWebhookUrl(options.webhookUrl ?? null),
    webhookRetryBaseMs: options.webhookRetryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    webhookRetryMaxWaitMs: options.webhookRetryMaxWaitMs ?? DEFAULT_RETRY_MAX_WAIT_MS,
    webhookRetryMaxAgeMs: options.webhookRetryMaxAgeMs ?? META_WEBHOOK_MAX_AGE_MS,
    webhookMaxAttempts: options.webhookMaxAttempts ?? null,
    ...MESSAGING_DEFAULTS,
    statusDelaysMs: { ...(options.statusDelaysMs ?? MESSAGING_DEFAULTS.statusDelaysMs) },
    deliveredRate: options.deliveredRate ?? MESSAGING_DEFAULTS.deliveredRate,
    readRate: options.readRate ?? MESSAGING_DEFAULTS.readRate,
    webhookBatchSize: options.webhookBatchSize ?? MESSAGING_DEFAULTS.webhookBatchSize,
    webhookBatchWindowMs: options.webhookBatchWindowMs ?? MESSAGING_DEFAULTS.webhookBatchWindowMs,
    defaultMessagingLimit: checkMessagingLimit(
      options.defaultMessagingLimit ?? MESSAGING_DEFAULTS.defaultMessagingLimit,
      'defaultMessagingLimit',
    ),
    usMarketingRule: options.usMarketingRule ?? MESSAGING_DEFAULTS.usMarketingRule,
    mmApiTermsAtSignup: options.mmApiTermsAtSignup ?? MESSAGING_DEFAULTS.mmApiTermsAtSignup,
  };
}

function toGraphError(error: FastifyError | GraphError): GraphError {
  if (error instanceof GraphError) return error;
  // Fastify's own 4xx (unparsable JSON, unsupported content type) are bad parameters to Graph.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new GraphError(400, 100, `(#100) ${error.message}`);
  return unknownError();
}

export function buildSandboxApp(options: SandboxOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger
      ? sandboxLoggerOptions(options.logger === true ? undefined : options.logger)
      : false,
    rewriteUrl: (request) => stripGraphVersion(request.url ?? '/'),
  });
  const config = initialConfig(options);
  const appSecret = options.appSecret ?? DEFAULT_APP_SECRET;
  const ctx: SandboxContext = {
    state: new SandboxState(() => config.defaultMessagingLimit),
    log: new CallLog(options.logFile),
    appId: options.appId ?? DEFAULT_APP_ID,
    appSecret,
    appName: 'Herald Sandbox App',
    publicUrl: options.publicUrl,
    config,
    reviews: new ReviewScheduler(
      () => config.reviewDelayMs,
      (templateId) => {
        runAutomaticReview(ctx, templateId);
        ctx.persistence?.changed();
      },
    ),
    webhooks: new WebhookSender(
      appSecret,
      () => ({
        retryBaseMs: config.webhookRetryBaseMs,
        retryMaxWaitMs: config.webhookRetryMaxWaitMs,
        retryMaxAgeMs: config.webhookRetryMaxAgeMs,
        maxAttempts: config.webhookMaxAttempts,
      }),
      () => ctx.persistence?.changed(),
    ),
    messaging: new Messaging(
      (wabaId, payload) => {
        // Posted statuses leave the queue the state file keeps.
        ctx.persistence?.changed();
        ctx.webhooks.send(webhookTarget(ctx, wabaId), payload, { field: 'messages', wabaId });
      },
      () => ({ batchSize: config.webhookBatchSize, windowMs: config.webhookBatchWindowMs }),
      () => ctx.persistence?.changed(),
    ),
    persistence: null,
  };
  const stateDir =
    options.stateDir === undefined
      ? options.logFile === undefined
        ? null
        : dirname(options.logFile)
      : options.stateDir;
  if (stateDir !== null) {
    const persistence = new StatePersistence(stateDir, () => captureState(ctx), options.snapshotDelayMs);
    const saved = persistence.load();
    if (saved) restoreState(ctx, saved.document, saved.uploadBytes);
    ctx.persistence = persistence;
    // Any call but a read may change the state; the write itself is debounced, never on the request's path.
    app.addHook('onResponse', (request, _reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') persistence.changed();
      done();
    });
  }

  app.register(formbody);
  // Graph reads a JSON content type with no body as no parameters (a DELETE, a POST whose parameters are in the
  // query): the call goes on and names what it misses, never a parser's error.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new GraphError(400, 100, '(#100) The request body is not valid JSON'), undefined);
    }
  });
  // The resumable upload posts raw file bytes under any content type (or none).
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );
  // Pending reviews, status timers and webhook retries must not outlive the server; buffered log lines
  // reach the disk first, and so does the state, with the reviews and statuses still to come.
  app.addHook('preClose', async () => {
    ctx.messaging.halt();
  });
  app.addHook('onClose', async () => {
    await ctx.persistence?.close().catch((error: Error) => app.log.error(error));
    ctx.reviews.cancelAll();
    ctx.messaging.stop();
    ctx.webhooks.cancelAll();
    await ctx.log.flush().catch(() => undefined);
  });

  app.setErrorHandler<FastifyError | GraphError>((error, request, reply) => {
    const graphError = toGraphError(error);
    if (graphError.httpStatus >= 500) request.log.error(error);
    return reply.code(graphError.httpStatus).send(graphErrorBody(graphError));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const [id = '', edge] = path.split('/').filter(Boolean);
    // Graph checks the token before it looks the object up.
    const error = (() => {
      try {
        const token = authenticate(request, ctx.state);
        // A node the token sees, read through an edge it does not have: Graph takes the edge for a field.
        const nodeType = visibleNodeType(token, ctx.state, id);
        if (request.method === 'GET' && edge && nodeType) return nonexistingField(edge, nodeType);
        return unsupportedRequest(request.method, id);
      } catch (e) {
        return e as GraphError;
      }
    })();
    return reply.code(error.httpStatus).send(graphErrorBody(error));
  });

  registerControlAccess(app, options.controlToken);
  registerControlRoutes(app, ctx, { revealSecrets: options.revealSecretsInState === true });
  registerBsuidControlRoutes(app, ctx);
  registerWebhookEventControlRoutes(app, ctx);
  registerPhoneNumberControlRoutes(app, ctx);
  registerEmbeddedSignupRoutes(app, ctx);
  registerOauthRoutes(app, ctx);
  registerNodeRoutes(app, ctx);
  registerPhoneNumberRoutes(app, ctx);
  registerPricingAnalyticsRoutes(app, ctx);
  registerTemplateAnalyticsRoutes(app, ctx);
  registerSubscribedAppsRoutes(app, ctx);
  registerMessageTemplateRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerMarketingMessagesRoutes(app, ctx);
  registerMediaRoutes(app, ctx);
  registerMessagingControlRoutes(app, ctx);
  registerPortfolioControlRoutes(app, ctx);
  registerMarketingMessagesControlRoutes(app, ctx);
  registerLinkClickControlRoutes(app, ctx);
  registerClockControlRoutes(app, ctx);
  registerRecipientControlRoutes(app, ctx);
  return app;
}
