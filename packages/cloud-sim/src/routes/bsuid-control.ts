import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { isBsuid } from '../messages/bsuid';
import { requestParams, stringParam } from '../request-params';
import { webhookTarget } from '../webhooks/webhook-target';

const bsuidParam = (params: Record<string, unknown>, name: string): string => {
  const value = stringParam(params, name);
  if (value === undefined) throw missingParameter(name);
  if (!isBsuid(value))
    throw invalidParameter(`${name} must be a business-scoped user id such as US.13491208655302741918`);
  return value;
};

/**
 * `POST /__sandbox/user-id-change` {phone_number_id, user_id, new_user_id}: the user known by `user_id` was
 * given a new BSUID (they changed their number), and the business number gets Meta's system message
 * `user_changed_user_id`: `from_user_id` the old id, `system.user_id` the new one.
 */
export function registerBsuidControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/__sandbox/user-id-change', async (request) => {
    const params = requestParams(request);
    const phoneId = stringParam(params, 'phone_number_id');
    if (phoneId === undefined) throw missingParameter('phone_number_id');
    const phone = ctx.state.findPhoneNumber(phoneId);
    if (!phone) throw new GraphError(404, 100, `(#100) No phone number with id ${phoneId}`);
    const oldId = bsuidParam(params, 'user_id');
    const newId = bsuidParam(params, 'new_user_id');
    const portfolioId = ctx.state.findWaba(phone.wabaId)?.businessId ?? phone.wabaId;
    ctx.messaging.userIds.rename(portfolioId, oldId, newId);
    const wamid = ctx.messaging.wamids.next(oldId);
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: phone.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: phone.digits, phone_number_id: phone.id },
                messages: [
                  {
                    from_user_id: oldId,
                    id: wamid,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: 'system',
                    system: {
                      body: `User ${oldId} changed to ${newId}`,
                      type: 'user_changed_user_id',
                      user_id: newId,
                    },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    const delivery = ctx.webhooks.send(webhookTarget(ctx, phone.wabaId), body, {
      field: 'messages',
      wabaId: phone.wabaId,
    });
    const result = { wamid, delivery_id: delivery.id };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/user-id-change', body: params, result });
    return result;
  });
}
