import type { FastifyInstance } from 'fastify';
import { authenticate, grantedWaba } from '../auth';
import type { SandboxContext } from '../context';
import { requestParams, stringParam } from '../request-params';

interface IdParams {
  Params: { id: string };
}

/** The app subscribed is always the token's own app, as with Meta's business tokens. */
export function registerSubscribedAppsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<IdParams>('/:id/subscribed_apps', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'GET');
    return {
      data: ctx.state.subscriptionsOf(waba.id).map((s) => ({
        whatsapp_business_api_data: {
          id: s.appId,
          name: s.appId === ctx.appId ? ctx.appName : s.appId,
          ...(s.overrideCallbackUri === null ? {} : { override_callback_uri: s.overrideCallbackUri }),
        },
      })),
    };
  });

  app.post<IdParams>('/:id/subscribed_apps', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'POST');
    const params = requestParams(request);
    ctx.state.subscribe({
      wabaId: waba.id,
      appId: token.appId,
      overrideCallbackUri: stringParam(params, 'override_callback_uri') ?? null,
      verifyToken: stringParam(params, 'verify_token') ?? null,
    });
    const result = { success: true };
    await ctx.log.append({ method: 'POST', path: `/${waba.id}/subscribed_apps`, body: params, result });
    return result;
  });

  app.delete<IdParams>('/:id/subscribed_apps', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'DELETE');
    ctx.state.unsubscribe(waba.id, token.appId);
    const result = { success: true };
    await ctx.log.append({ method: 'DELETE', path: `/${waba.id}/subscribed_apps`, body: {}, result });
    return result;
  });
}
