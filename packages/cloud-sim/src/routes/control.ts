import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { randomNumericId } from '../random-strings';
import { requestParams, stringParam } from '../request-params';
import { signUpBusiness } from '../sign-up';

/** Test-only endpoints under `/__sandbox/`; they need no token, like a vendor's own test console. */
export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  let created = 0;

  app.post('/__sandbox/reset', async () => {
    ctx.state.reset();
    created = 0;
    const result = { ok: true };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/reset', body: {}, result });
    return result;
  });

  app.get('/__sandbox/state', async () => ({ app_id: ctx.appId, ...ctx.state.snapshot() }));

  app.post('/__sandbox/wabas', async (request, reply) => {
    const params = requestParams(request);
    created += 1;
    const result = signUpBusiness(ctx, {
      businessName: stringParam(params, 'business_name') ?? `Sandbox Business ${created}`,
      // 555 numbers are reserved for fiction, so a default can never be someone's real phone.
      phoneNumber: stringParam(params, 'phone_number') ?? `+1555${randomNumericId(7)}`,
    });
    await ctx.log.append({ method: 'POST', path: '/__sandbox/wabas', body: params, result });
    return reply.code(201).send(result);
  });
}
