import type { FastifyInstance } from 'fastify';
import { authenticate, grantedPhoneNumber, grantedWaba } from '../auth';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter, pinMismatch } from '../errors';
import { pickFields } from '../fields';
import { phoneNumberNode } from '../graph-objects';
import { requestParams, stringParam } from '../request-params';

interface IdParams {
  Params: { id: string };
  Querystring: Record<string, string | undefined>;
}

const DEFAULT_PAGE_SIZE = 25;

function cursorOf(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function idOfCursor(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString();
}

export function registerPhoneNumberRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<IdParams>('/:id/phone_numbers', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'GET');
    const { fields, limit, after } = request.query;
    const pageSize =
      limit !== undefined && /^\d+$/.test(limit) ? Math.max(1, Number(limit)) : DEFAULT_PAGE_SIZE;
    const all = ctx.state.phoneNumbersOf(waba.id);
    const start = after === undefined ? 0 : all.findIndex((p) => p.id === idOfCursor(after)) + 1;
    const page = all.slice(start, start + pageSize);
    const first = page[0];
    const last = page.at(-1);
    return {
      data: page.map((p) => pickFields(phoneNumberNode(p), fields)),
      paging: {
        cursors: { before: first ? cursorOf(first.id) : '', after: last ? cursorOf(last.id) : '' },
      },
    };
  });

  app.post<IdParams>('/:id/register', async (request) => {
    const token = authenticate(request, ctx.state);
    const phone = grantedPhoneNumber(token, ctx.state, request.params.id, 'POST');
    const params = requestParams(request);
    const messagingProduct = stringParam(params, 'messaging_product');
    if (messagingProduct === undefined) throw missingParameter('messaging_product');
    if (messagingProduct !== 'whatsapp') {
      throw invalidParameter(`messaging_product must be "whatsapp", got "${messagingProduct}"`);
    }
    const pin = stringParam(params, 'pin');
    if (pin === undefined) throw missingParameter('pin');
    if (!/^\d{6}$/.test(pin)) throw invalidParameter('pin must be exactly 6 digits');
    if (ctx.state.register(phone.id, pin) === 'pin-mismatch') throw pinMismatch();
    const result = { success: true };
    await ctx.log.append({ method: 'POST', path: `/${phone.id}/register`, body: params, result });
    return result;
  });
}
