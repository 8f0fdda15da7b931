import type { FastifyInstance } from 'fastify';
import { authenticate } from '../auth';
import type { SandboxContext } from '../context';
import { unsupportedRequest } from '../errors';
import { pickFields } from '../fields';
import { phoneNumberNode, wabaNode } from '../graph-objects';

/** `GET /{id}` reads whichever node the id names, as Graph does: a WABA or a phone number. */
export function registerNodeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { id: string }; Querystring: { fields?: string } }>('/:id', async (request) => {
    const token = authenticate(request, ctx.state);
    const { id } = request.params;
    const waba = ctx.state.findWaba(id);
    if (waba && token.wabaIds.includes(waba.id)) return pickFields(wabaNode(waba), request.query.fields);
    const phone = ctx.state.findPhoneNumber(id);
    if (phone && token.wabaIds.includes(phone.wabaId)) {
      return pickFields(phoneNumberNode(phone), request.query.fields);
    }
    throw unsupportedRequest('GET', id);
  });
}
