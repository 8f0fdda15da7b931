import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, grantedPhoneNumber } from '../auth';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter } from '../errors';
import { somethingWentWrong, throughputExceeded } from '../messages/message-errors';
import { sendFreeFormMessage } from '../messages/send-free-form';
import { sendTemplateMessage } from '../messages/send-message';
import { requestParams, stringParam } from '../request-params';
import type { PhoneNumber } from '../state';

export interface IdParams {
  Params: { id: string };
}

/**
 * `POST /{phone-number-id}/messages`: template sends and, inside a customer service window, every other type
 * (send-free-form.ts), with the injected faults first; and the read receipt
 * (`status: "read"` with the `message_id` of a received message), which Meta answers `{"success": true}`.
 */
export function registerMessageRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/messages', async (request) => {
    const params = requestParams(request);
    // A read receipt sends nothing to anyone: the faults, which stand for send failures, do not apply.
    if (params.status !== undefined) {
      const token = authenticate(request, ctx.state);
      const phone = grantedPhoneNumber(token, ctx.state, request.params.id, 'POST');
      return markRead(ctx, phone.id, params);
    }
    const phone = await sendingNumber(ctx, request, params);
    return params.type === 'template'
      ? sendTemplateMessage(ctx, phone, params)
      : sendFreeFormMessage(ctx, phone, params);
  });
}

/**
 * What every send goes through before its content is looked at (`/messages` and the MM API's
 * `/marketing_messages` alike): the injected delay, the token and the number, the recipient noted as
 * requested, then the injected faults.
 */
export async function sendingNumber(
  ctx: SandboxContext,
  request: FastifyRequest<IdParams>,
  params: Record<string, unknown>,
): Promise<PhoneNumber> {
  const { faults } = ctx.messaging;
  await faults.delay();
  const token = authenticate(request, ctx.state);
  const phone = grantedPhoneNumber(token, ctx.state, request.params.id, 'POST');
  const recipient = params.to ?? params.recipient;
  if (typeof recipient === 'string')
    ctx.messaging.accepted.noteRequest(phone.id, recipient.replace(/^\+/, ''));
  const verdict = faults.decide();
  if (verdict === 'server-error') throw somethingWentWrong();
  if (verdict === 'rate-limit') throw throughputExceeded();
  return phone;
}

async function markRead(ctx: SandboxContext, phoneNumberId: string, params: Record<string, unknown>) {
  const product = params.messaging_product;
  if (product === undefined) throw missingParameter('messaging_product');
  if (product !== 'whatsapp') throw invalidParameter('messaging_product must be "whatsapp"');
  if (params.status !== 'read') throw invalidParameter('status must be "read"');
  const messageId = stringParam(params, 'message_id');
  if (!messageId) throw missingParameter('message_id');
  const result = { success: true as const };
  await ctx.log.append({
    method: 'POST',
    path: `/${phoneNumberId}/messages`,
    body: { status: 'read', message_id: messageId },
    result,
  });
  return result;
}
