import type { FastifyInstance } from 'fastify';
import { authenticate, grantedBusiness } from '../auth';
import type { SandboxContext } from '../context';
import { requestOnboarding } from '../marketing-messages/onboarding-actions';
import { sendMarketingMessage } from '../marketing-messages/send-marketing';
import { requestParams } from '../request-params';
import { sendingNumber } from './messages';
import type { IdParams } from './messages';

/**
 * Meta's Marketing Messages API for WhatsApp (MM API): `POST /{phone-number-id}/marketing_messages`, marketing
 * templates only, from a WABA whose portfolio signed the terms; and `POST /{business-id}/onboard_partners_to_mm_lite`,
 * the partner's request that the portfolio sign them.
 */
export function registerMarketingMessagesRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/marketing_messages', async (request) => {
    const params = requestParams(request);
    const phone = await sendingNumber(ctx, request, params);
    return sendMarketingMessage(ctx, phone, params);
  });

  app.post<IdParams>('/:id/onboard_partners_to_mm_lite', async (request) => {
    const params = requestParams(request);
    const token = authenticate(request, ctx.state);
    const businessId = grantedBusiness(token, ctx.state, request.params.id, 'POST');
    const result = requestOnboarding(ctx, businessId);
    await ctx.log.append({
      method: 'POST',
      path: `/${businessId}/onboard_partners_to_mm_lite`,
      body: params,
      result,
    });
    return result;
  });
}
