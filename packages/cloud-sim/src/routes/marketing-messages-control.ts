import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { GraphError } from '../errors';
import { acceptTerms, parseEligibility } from '../marketing-messages/onboarding-actions';
import { requestParams } from '../request-params';

/**
 * Control endpoints for the MM API's onboarding, standing for what happens outside the API at Meta: a portfolio
 * admin accepting the terms in WhatsApp Manager, and Meta's eligibility decision about a WABA.
 */
export function registerMarketingMessagesControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: { businessId: string } }>(
    '/__sandbox/businesses/:businessId/marketing-messages-terms',
    async (request) => {
      const params = requestParams(request);
      const { businessId } = request.params;
      if (!ctx.state.hasBusiness(businessId))
        throw new GraphError(404, 100, `(#100) No business portfolio with id ${businessId}`);
      const result = acceptTerms(ctx, businessId);
      await ctx.log.append({
        method: 'POST',
        path: `/__sandbox/businesses/${businessId}/marketing-messages-terms`,
        body: params,
        result,
      });
      return result;
    },
  );

  app.post<{ Params: { id: string } }>('/__sandbox/wabas/:id/marketing-messages', async (request) => {
    const params = requestParams(request);
    const waba = ctx.state.findWaba(request.params.id);
    if (!waba)
      throw new GraphError(404, 100, `(#100) No WhatsApp Business Account with id ${request.params.id}`);
    const eligibility = parseEligibility(params);
    ctx.state.marketingMessages.setEligibility(waba.id, eligibility);
    const result = {
      id: waba.id,
      eligibility,
      marketing_messages_onboarding_status: ctx.state.marketingMessages.wabaStatus(waba.id, waba.businessId),
    };
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/wabas/${waba.id}/marketing-messages`,
      body: params,
      result,
    });
    return result;
  });
}
