import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance } from 'fastify';
import { authenticate } from './auth';
import { CallLog } from './call-log';
import type { SandboxContext } from './context';
import { GraphError, graphErrorBody, unknownError, unsupportedRequest } from './errors';
import { registerControlRoutes } from './routes/control';
import { registerEmbeddedSignupRoutes } from './routes/embedded-signup';
import { registerNodeRoutes } from './routes/nodes';
import { registerOauthRoutes } from './routes/oauth';
import { registerPhoneNumberRoutes } from './routes/phone-numbers';
import { registerSubscribedAppsRoutes } from './routes/subscribed-apps';
import { SandboxState } from './state';
import { stripGraphVersion } from './graph-version';

export interface SandboxOptions {
  appId?: string;
  appSecret?: string;
  /** Append-only JSONL record of state-changing calls; none is written when absent. */
  logFile?: string;
  /** The sandbox's own base URL as browsers reach it; by default taken from each request's Host. */
  publicUrl?: string;
  logger?: boolean;
}

export const DEFAULT_APP_ID = 'herald-sandbox-app';
export const DEFAULT_APP_SECRET = 'herald-sandbox-secret';

function toGraphError(error: FastifyError | GraphError): GraphError {
  if (error instanceof GraphError) return error;
  // Fastify's own 4xx (unparsable JSON, unsupported content type) are bad parameters to Graph.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new GraphError(400, 100, `(#100) ${error.message}`);
  return unknownError();
}

export function buildSandboxApp(options: SandboxOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    rewriteUrl: (request) => stripGraphVersion(request.url ?? '/'),
  });
  const ctx: SandboxContext = {
    state: new SandboxState(),
    log: new CallLog(options.logFile),
    appId: options.appId ?? DEFAULT_APP_ID,
    appSecret: options.appSecret ?? DEFAULT_APP_SECRET,
    appName: 'Herald Sandbox App',
    publicUrl: options.publicUrl,
  };

  app.register(formbody);

  app.setErrorHandler<FastifyError | GraphError>((error, request, reply) => {
    const graphError = toGraphError(error);
    if (graphError.httpStatus >= 500) request.log.error(error);
    return reply.code(graphError.httpStatus).send(graphErrorBody(graphError));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const id = path.split('/').filter(Boolean)[0] ?? '';
    // Graph checks the token before it looks the object up.
    const error = (() => {
      try {
        authenticate(request, ctx.state);
        return unsupportedRequest(request.method, id);
      } catch (e) {
        return e as GraphError;
      }
    })();
    return reply.code(error.httpStatus).send(graphErrorBody(error));
  });

  registerControlRoutes(app, ctx);
  registerEmbeddedSignupRoutes(app, ctx);
  registerOauthRoutes(app, ctx);
  registerNodeRoutes(app, ctx);
  registerPhoneNumberRoutes(app, ctx);
  registerSubscribedAppsRoutes(app, ctx);
  return app;
}
