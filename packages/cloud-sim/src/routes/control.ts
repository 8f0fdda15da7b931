import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { invalidParameter } from '../errors';
import { randomNumericId } from '../random-strings';
import { requestParams, stringParam } from '../request-params';
import { signUpBusiness } from '../sign-up';
import { parseFaultPatch } from '../messages/faults';
import { configView, updateConfig } from '../sandbox-config';
import { forceReview } from '../templates/forced-review';
import type { SandboxSnapshot } from '../state';

/** What stands in for a secret in control answers: that there is one, never what it is. */
const MASKED = '••••';

/**
 * The state without what would let its reader act as someone: a registration's PIN (Herald's "forgot
 * password" asks for it), an unspent OAuth code (exchanged, it is a business token). Tokens and the app secret
 * are never in the snapshot at all.
 */
function maskSecrets(snapshot: SandboxSnapshot): SandboxSnapshot {
  return {
    ...snapshot,
    codes: snapshot.codes.map((c) => ({ ...c, code: MASKED })),
    registrations: snapshot.registrations.map((r) => ({ ...r, pin: r.pin === null ? null : MASKED })),
  };
}

/**
 * Test-only endpoints under `/__sandbox/`, like a vendor's own test console; control-access.ts decides who may
 * call them. POST /__sandbox/wabas answers the new business's one-time code, as the Embedded Signup popup
 * hands it to the browser: that is its purpose, and the code is the caller's own, freshly made.
 */
export function registerControlRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  options: { revealSecrets: boolean } = { revealSecrets: false },
): void {
  let created = 0;

  app.post('/__sandbox/reset', async () => {
    ctx.reviews.cancelAll();
    ctx.messaging.reset();
    ctx.webhooks.clear();
    ctx.state.reset();
    // On disk too: a restart after a reset starts empty.
    await ctx.persistence?.clear();
    created = 0;
    const result = { ok: true };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/reset', body: {}, result });
    return result;
  });

  app.get('/__sandbox/state', async () => ({
    app_id: ctx.appId,
    ...(options.revealSecrets ? ctx.state.snapshot() : maskSecrets(ctx.state.snapshot())),
    pending_reviews: ctx.reviews.pending(),
    webhook_deliveries: ctx.webhooks.deliveries(),
    messaging: ctx.messaging.snapshot(),
    config: configView(ctx.config),
  }));

  app.post('/__sandbox/wabas', async (request, reply) => {
    const params = requestParams(request);
    created += 1;
    const result = signUpBusiness(ctx, {
      businessName: stringParam(params, 'business_name') ?? `Sandbox Business ${created}`,
      // 555 numbers are reserved for fiction, so a default can never be someone's real phone.
      phoneNumber: stringParam(params, 'phone_number') ?? `+1555${randomNumericId(7)}`,
      mmApiTerms: mmApiTermsParam(params.mm_api_terms),
    });
    await ctx.log.append({ method: 'POST', path: '/__sandbox/wabas', body: params, result });
    return reply.code(201).send(result);
  });

  app.get('/__sandbox/config', async () => configView(ctx.config));

  app.post('/__sandbox/config', async (request) => {
    const params = requestParams(request);
    // Fault keys are welcome here too; all are checked before anything changes.
    const faults = parseFaultPatch(params);
    const pairBefore = `${ctx.config.pairRateBurst}/${ctx.config.pairRateWindowMs}`;
    updateConfig(ctx.config, params);
    ctx.messaging.faults.apply(faults);
    // A new pair-rate rule starts every pair afresh (an old lockout would outlast a shorter window).
    if (`${ctx.config.pairRateBurst}/${ctx.config.pairRateWindowMs}` !== pairBefore)
      ctx.messaging.pairRate.clear();
    const result = configView(ctx.config);
    await ctx.log.append({ method: 'POST', path: '/__sandbox/config', body: params, result });
    return result;
  });

  app.post<{ Params: { id: string } }>('/__sandbox/templates/:id/review', async (request) => {
    const params = requestParams(request);
    const result = forceReview(ctx, request.params.id, params);
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/templates/${request.params.id}/review`,
      body: params,
      result,
    });
    return result;
  });
}

/** `mm_api_terms` of a new test business: whether its signup accepts the MM API terms (a boolean, or absent). */
function mmApiTermsParam(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter('mm_api_terms must be a boolean');
}
