import type { FastifyInstance } from 'fastify';
import { applyQualityChange, parseQualityChange } from '../account-health';
import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { parseFaultPatch } from '../messages/faults';
import { THROUGHPUT_MPS } from '../messages/token-bucket';
import type { ThroughputLevel } from '../messages/token-bucket';
import type { SendEndpoint } from '../messages/accepted-log';
import { isBsuid } from '../messages/bsuid';
import { inboundPayload } from '../messages/status-payload';
import type { InboundMessage } from '../messages/status-payload';
import { requestParams, stringParam } from '../request-params';
import { recordQuickReplyTap } from '../templates/template-analytics';
import { webhookTarget } from '../webhooks/webhook-target';

const LEVELS = ['STANDARD', 'HIGH'] as const;

/** `since` as Unix seconds, Unix milliseconds or an ISO time; answers Unix milliseconds. */
function parseSince(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const n = Number(raw);
    return n < 1e11 ? n * 1000 : n;
  }
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw invalidParameter('since must be Unix seconds or milliseconds, or an ISO time');
  return ms;
}

function sendEndpoint(raw: string | undefined): SendEndpoint | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'messages' && raw !== 'marketing_messages')
    throw invalidParameter('endpoint must be messages or marketing_messages');
  return raw;
}

function wholeQuery(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw invalidParameter(`${name} must be a whole number`);
  return Number(raw);
}

function unknownPhoneNumber(id: string): GraphError {
  return new GraphError(404, 100, `(#100) No phone number with id ${id}`);
}

/** Control endpoints of the messaging side: ground truth, throughput, faults, inbound messages. */
export function registerMessagingControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { messaging } = ctx;

  app.get<{ Querystring: Record<string, string | undefined> }>('/__sandbox/messages', async (request) => {
    const q = request.query;
    return messaging.accepted.query({
      phoneNumberId: q.phone_number_id || undefined,
      to: q.to ? q.to.replace(/^\+/, '') : undefined,
      endpoint: sendEndpoint(q.endpoint),
      since: parseSince(q.since),
      limit: wholeQuery(q.limit, 'limit'),
      offset: wholeQuery(q.offset, 'offset'),
      withRequested: q.requested === '1',
    });
  });

  app.post<{ Params: { id: string } }>('/__sandbox/phone-numbers/:id', async (request) => {
    const phone = ctx.state.findPhoneNumber(request.params.id);
    if (!phone) throw unknownPhoneNumber(request.params.id);
    const params = requestParams(request);
    const level = stringParam(params, 'throughput_level');
    if (level !== undefined && !LEVELS.includes(level as (typeof LEVELS)[number])) {
      throw invalidParameter('throughput_level must be STANDARD or HIGH');
    }
    const rawMps = params.mps;
    let mps: number | null | undefined;
    if (rawMps === null) mps = null;
    else if (rawMps !== undefined) {
      mps = typeof rawMps === 'string' ? Number(rawMps) : (rawMps as number);
      if (typeof mps !== 'number' || !Number.isFinite(mps) || mps <= 0 || mps > 100_000) {
        throw invalidParameter(
          'mps must be a number above 0 and at most 100000, or null for the level’s rate',
        );
      }
    }
    const quality = parseQualityChange(params);
    if (level !== undefined) phone.throughputLevel = level as ThroughputLevel;
    if (mps !== undefined) messaging.throughput.setMps(phone.id, mps);
    else messaging.throughput.refill(phone.id);
    const notified = applyQualityChange(ctx, phone, quality);
    const result = {
      id: phone.id,
      throughput_level: phone.throughputLevel,
      mps: messaging.throughput.mps(phone.id, phone.throughputLevel as ThroughputLevel),
      level_mps: THROUGHPUT_MPS[phone.throughputLevel as ThroughputLevel],
      // Quality and status only when asked about, so throughput-only callers get the answer they always did.
      ...((quality.qualityRating ?? quality.status ?? quality.event)
        ? { quality_rating: phone.qualityRating, status: phone.status, quality_update: notified }
        : {}),
    };
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/phone-numbers/${phone.id}`,
      body: params,
      result,
    });
    return result;
  });

  app.get('/__sandbox/faults', async () => messaging.faults.view());

  app.post('/__sandbox/faults', async (request) => {
    const params = requestParams(request);
    messaging.faults.apply(parseFaultPatch(params));
    const result = messaging.faults.view();
    await ctx.log.append({ method: 'POST', path: '/__sandbox/faults', body: params, result });
    return result;
  });

  app.post('/__sandbox/inbound', async (request) => {
    const params = requestParams(request);
    const phoneId = stringParam(params, 'phone_number_id');
    if (phoneId === undefined) throw missingParameter('phone_number_id');
    const phone = ctx.state.findPhoneNumber(phoneId);
    if (!phone) throw unknownPhoneNumber(phoneId);
    // A user who hides their number writes in with their BSUID (`user_id`) and no `from` (bsuid.ts).
    const userId = stringParam(params, 'user_id');
    if (userId !== undefined && !isBsuid(userId))
      throw invalidParameter('user_id must be a business-scoped user id such as US.13491208655302741918');
    const from = stringParam(params, 'from')?.replace(/^\+/, '');
    if (from === undefined && userId === undefined) throw missingParameter('from');
    if (from !== undefined && !/^[1-9]\d{6,14}$/.test(from))
      throw invalidParameter('from must be a phone number of 7 to 15 digits');
    const text = stringParam(params, 'text');
    const payload = stringParam(params, 'button_payload');
    if (text === undefined && payload === undefined) throw missingParameter('text');
    const content: InboundMessage['content'] =
      payload !== undefined
        ? {
            type: 'button',
            payload,
            text: stringParam(params, 'button_text') ?? text ?? payload,
            contextId: stringParam(params, 'context_id') ?? null,
          }
        : { type: 'text', body: text ?? '' };
    // A quick-reply tap answering a template message counts in that template's analytics.
    if (content.type === 'button' && content.contextId !== null) {
      recordQuickReplyTap(ctx, content.contextId, content.text, Date.now());
    }
    const sender = from ?? (userId as string);
    const wamid = messaging.wamids.next(sender);
    const now = Date.now();
    // The user wrote in: templates from this number to them are free of the limits for 24 hours.
    const portfolioId = ctx.state.findWaba(phone.wabaId)?.businessId ?? phone.wabaId;
    // Meta names every sender's BSUID; a test that gives one for a number makes it that number's from now on.
    if (from !== undefined && userId !== undefined) messaging.userIds.name(portfolioId, from, userId);
    const senderUserId = userId ?? messaging.userIds.of(portfolioId, from as string);
    messaging.reach.openServiceWindow(portfolioId, phone.id, sender, now);
    const body = inboundPayload({
      wabaId: phone.wabaId,
      phoneNumberId: phone.id,
      displayDigits: phone.digits,
      from: from ?? null,
      userId: senderUserId,
      username: stringParam(params, 'username') ?? null,
      profileName: stringParam(params, 'name') ?? 'Sandbox User',
      wamid,
      timestamp: Math.floor(now / 1000),
      content,
    });
    const delivery = ctx.webhooks.send(webhookTarget(ctx, phone.wabaId), body, {
      field: 'messages',
      wabaId: phone.wabaId,
    });
    const result = { wamid, delivery_id: delivery.id };
    await ctx.log.append({ method: 'POST', path: '/__sandbox/inbound', body: params, result });
    return result;
  });
}
