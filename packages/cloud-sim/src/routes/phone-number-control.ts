import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { GraphError, invalidParameter } from '../errors';
import { phoneNumberNode } from '../graph-objects';
import { normalisePhoneNumber } from '../phone-format';
import { randomNumericId } from '../random-strings';
import { requestParams, stringParam } from '../request-params';

/**
 * `POST /__sandbox/wabas/:id/phone-numbers {phone_number?}`: adds a second (third, …) registered number to a
 * WABA, so tests can choose which number a broadcast sends from. Answers the number's Graph node (201).
 */
export function registerPhoneNumberControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: { id: string } }>('/__sandbox/wabas/:id/phone-numbers', async (request, reply) => {
    const waba = ctx.state.findWaba(request.params.id);
    if (!waba)
      throw new GraphError(404, 100, `(#100) No WhatsApp Business Account with id ${request.params.id}`);
    const params = requestParams(request);
    // 555 numbers are reserved for fiction, so a default can never be someone's real phone.
    const raw = stringParam(params, 'phone_number') ?? `+1555${randomNumericId(7)}`;
    const digits = normalisePhoneNumber(raw);
    if (digits === null)
      throw invalidParameter('phone_number must be an international number of 8 to 15 digits');
    const result = phoneNumberNode(ctx.state.addPhoneNumber(waba.id, digits));
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/wabas/${waba.id}/phone-numbers`,
      body: params,
      result,
    });
    return reply.code(201).send(result);
  });
}
