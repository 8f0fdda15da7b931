import type { FastifyInstance } from 'fastify';
import { authenticate, grantedPhoneNumber } from '../auth';
import type { SandboxContext } from '../context';
import { somethingWentWrong, throughputExceeded } from '../messages/message-errors';
import { sendTemplateMessage } from '../messages/send-message';
import { requestParams } from '../request-params';

interface IdParams {
  Params: { id: string };
}

/** `POST /{phone-number-id}/messages`: template sends, with the injected faults first. */
export function registerMessageRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/messages', async (request) => {
    const { faults } = ctx.messaging;
    await faults.delay();
    const token = authenticate(request, ctx.state);
    const phone = grantedPhoneNumber(token, ctx.state, request.params.id, 'POST');
    const verdict = faults.decide();
    if (verdict === 'server-error') throw somethingWentWrong();
    if (verdict === 'rate-limit') throw throughputExceeded();
    return sendTemplateMessage(ctx, phone, requestParams(request));
  });
}
