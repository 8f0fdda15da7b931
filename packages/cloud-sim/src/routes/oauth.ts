import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import {
  authorizationCodeUsed,
  invalidApplicationId,
  invalidAuthorizationCode,
  invalidClientSecret,
  missingParameter,
} from '../errors';
import { requestParams, stringParam } from '../request-params';

// Meta's answer carries an expiry of about 60 days; the sandbox never expires tokens.
const EXPIRES_IN_SECONDS = 5183944;

export function registerOauthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const exchange = async (request: FastifyRequest) => {
    const params = requestParams(request);
    const clientId = stringParam(params, 'client_id');
    const clientSecret = stringParam(params, 'client_secret');
    const code = stringParam(params, 'code');
    if (clientId !== ctx.appId) throw invalidApplicationId();
    if (clientSecret !== ctx.appSecret) throw invalidClientSecret();
    if (code === undefined || code === '') throw missingParameter('code');
    const exchanged = ctx.state.exchangeCode(code);
    if (!exchanged.ok) {
      throw exchanged.reason === 'used' ? authorizationCodeUsed() : invalidAuthorizationCode();
    }
    const result = {
      access_token: exchanged.token.token,
      token_type: 'bearer',
      expires_in: EXPIRES_IN_SECONDS,
    };
    await ctx.log.append({ method: request.method, path: '/oauth/access_token', body: params, result });
    return result;
  };
  app.get('/oauth/access_token', exchange);
  app.post('/oauth/access_token', exchange);
}
