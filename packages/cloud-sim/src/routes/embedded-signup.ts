import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { popupPage } from '../embedded-signup/popup-page';
import { sdkScript } from '../embedded-signup/sdk-script';
import { invalidApplicationId } from '../errors';
import { requestParams, stringParam } from '../request-params';
import { signUpBusiness } from '../sign-up';

function baseUrl(ctx: SandboxContext, request: FastifyRequest): string {
  return (ctx.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
}

// A page opened from file:// has origin "null", which postMessage cannot target; only then fall back to '*'.
function targetOrigin(origin: string | undefined): string {
  return origin !== undefined && /^https?:\/\/[^/?#]+$/.test(origin) ? origin : '*';
}

export function registerEmbeddedSignupRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get('/sdk.js', async (request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      // Meta's snippet loads the SDK with crossorigin="anonymous", which fails without this header.
      .header('access-control-allow-origin', '*')
      .send(sdkScript(baseUrl(ctx, request))),
  );

  app.get<{ Querystring: Record<string, string | undefined> }>('/embedded-signup', async (request, reply) => {
    const appId = request.query.app_id ?? '';
    return reply.type('text/html; charset=utf-8').send(
      popupPage({
        appId,
        appValid: appId === ctx.appId,
        esVersion: request.query.es_version ?? '',
        openerOrigin: targetOrigin(request.query.origin),
        session: request.query.session ?? '',
        completeUrl: '/embedded-signup/complete',
      }),
    );
  });

  app.post('/embedded-signup/complete', async (request) => {
    const params = requestParams(request);
    if (stringParam(params, 'app_id') !== ctx.appId) throw invalidApplicationId();
    const result = signUpBusiness(ctx, {
      businessName: stringParam(params, 'business_name'),
      phoneNumber: stringParam(params, 'phone_number'),
    });
    await ctx.log.append({ method: 'POST', path: '/embedded-signup/complete', body: params, result });
    return result;
  });
}
