import { createHash } from 'node:crypto';
import type { SandboxContext } from '../context';
import type { PhoneNumber } from '../state';
import {
  pairRateLimitHit,
  spamRateLimitHit,
  templateDisabled,
  templateDoesNotExist,
  templatePaused,
  throughputExceeded,
} from './message-errors';
import { invalidParameter } from '../errors';
import { authenticationToBsuid } from './bsuid';
import { PORTFOLIO_TIERS } from './portfolio-tiers';
import { decideFate, planFor } from './send-fate';
import type { MessageInfo } from './status-payload';
import { templateShape } from './template-shape';
import { effectiveTtlSeconds } from '../templates/time-to-live';
import { maxPriceOfSend } from '../templates/max-price';
import { checkParameters, parseSendRequest } from './validate-send';
import type { SendEnvelope } from './validate-send';
import type { FailureKind } from './message-errors';
import type { SendEndpoint } from './accepted-log';

export interface SendAnswer {
  messaging_product: 'whatsapp';
  contacts: ({ input: string; wa_id: string } | { input: string; user_id: string })[];
  messages: { id: string; message_status: 'accepted' | 'held_for_quality_assessment' }[];
}

/**
 * A template send, after the token and the number were checked: the request, the template and its
 * parameters, the portfolio's messaging limit, the number's throughput, the pair rate; then the message is
 * accepted (or held by template pacing), logged and its statuses planned. `endpoint`: the MM API's
 * `/marketing_messages` sends through here too, after its own checks (marketing-messages/send-marketing.ts).
 */
export function sendTemplateMessage(
  ctx: SandboxContext,
  phone: PhoneNumber,
  params: Record<string, unknown>,
  endpoint: SendEndpoint = 'messages',
): SendAnswer {
  const { messaging, config } = ctx;
  const send = parseSendRequest(params);
  const template = ctx.state.templates.findByNameAndLanguage(
    phone.wabaId,
    send.templateName,
    send.languageCode,
  );
  if (template?.status === 'PAUSED') throw templatePaused(template.name);
  if (template?.status === 'DISABLED') throw templateDisabled(template.name);
  if (template?.status !== 'APPROVED') throw templateDoesNotExist(send.templateName, send.languageCode);
  if (send.toBsuid && template.category === 'AUTHENTICATION') throw authenticationToBsuid();
  const maxPrice = maxPriceOfSend(template, endpoint, params);
  const parameters = checkParameters(templateShape(template.components), send.components);
  for (const id of mediaIdsOf(send.components)) {
    if (!ctx.state.media.findFor(id, phone.id)) {
      throw invalidParameter(
        `Media id ${id} was not uploaded to this phone number (POST /${phone.id}/media)`,
      );
    }
  }

  const now = Date.now();
  // A WABA's businessId is its portfolio: the limit is shared by every number of every WABA in it.
  const portfolioId = ctx.state.findWaba(phone.wabaId)?.businessId ?? phone.wabaId;
  const fate = decideFate(ctx, portfolioId, phone.id, send.digits, template, now);
  const limit = PORTFOLIO_TIERS[ctx.state.portfolioTier(portfolioId)];
  // Checked before any token is taken, recorded only once every check passed.
  if (fate.counts && !messaging.reach.fits(portfolioId, send.digits, limit, now)) throw spamRateLimitHit();
  if (!messaging.throughput.take(phone.id, phone.throughputLevel, now)) throw throughputExceeded();
  const pair = { burst: config.pairRateBurst, windowMs: config.pairRateWindowMs };
  if (!messaging.pairRate.take(phone.id, send.digits, pair, now)) throw pairRateLimitHit();
  if (fate.counts) messaging.reach.record(portfolioId, send.digits, now);

  const wamid = messaging.wamids.next(send.digits);
  const record = messaging.accepted.add({
    wamid,
    phoneNumberId: phone.id,
    to: send.digits,
    templateName: template.name,
    language: template.language,
    bizOpaqueCallbackData: send.bizOpaqueCallbackData,
    endpoint,
    acceptedAt: now,
    ttlSeconds: effectiveTtlSeconds(template, endpoint),
    parameters,
  });
  const failure = fate.failure ?? (fate.held?.outcome === 'drop' ? 'paced-drop' : null);
  const info = {
    ...messageInfo(ctx, phone, portfolioId, send, wamid, pricingCategoryOf(template, endpoint), failure),
    templateId: template.id,
    ...(maxPrice === undefined ? {} : { maxPrice }),
  };
  const plan = planFor(ctx, fate, now);
  messaging.statuses.schedule(info, plan);
  messaging.expiry.watch(info, record, plan);
  const answer = sendAnswer(send, wamid, fate.held ? 'held_for_quality_assessment' : 'accepted');
  ctx.log.enqueue({ method: 'POST', path: `/${phone.id}/${endpoint}`, body: params, result: answer });
  return answer;
}

/**
 * The category a message is priced and reported in: its template's, except that Meta reports a marketing message
 * sent through the MM API as `marketing_lite` (pricing.category and conversation.origin.type; MM API get-started),
 * priced at the marketing rate.
 */
function pricingCategoryOf(template: { category: string }, endpoint: SendEndpoint): string {
  return endpoint === 'marketing_messages' ? 'marketing_lite' : template.category.toLowerCase();
}

/** What the status webhooks of an accepted message need to know of it. */
export function messageInfo(
  ctx: SandboxContext,
  phone: PhoneNumber,
  portfolioId: string,
  send: Pick<SendEnvelope, 'digits' | 'toBsuid' | 'bizOpaqueCallbackData'>,
  wamid: string,
  category: string,
  failure: FailureKind | null,
): MessageInfo {
  return {
    wamid,
    phoneNumberId: phone.id,
    wabaId: phone.wabaId,
    displayDigits: phone.digits,
    recipient: send.digits,
    ...(send.toBsuid ? {} : { recipientUserId: ctx.messaging.userIds.of(portfolioId, send.digits) }),
    bizOpaqueCallbackData: send.bizOpaqueCallbackData,
    category,
    conversationId: createHash('md5').update(`${phone.id}|${send.digits}`).digest('hex'),
    ...(failure === null ? {} : { failure }),
  };
}

/** Meta's answer to an accepted send. */
export function sendAnswer(
  send: Pick<SendEnvelope, 'input' | 'digits' | 'toBsuid'>,
  wamid: string,
  status: SendAnswer['messages'][number]['message_status'],
): SendAnswer {
  return {
    messaging_product: 'whatsapp',
    contacts: [
      send.toBsuid ? { input: send.input, user_id: send.digits } : { input: send.input, wa_id: send.digits },
    ],
    messages: [{ id: wamid, message_status: status }],
  };
}

/** The media ids a send's header names (`{"image": {"id": …}}`); links are not checked. */
function mediaIdsOf(components: Array<Record<string, unknown>>): string[] {
  const ids: string[] = [];
  for (const component of components) {
    if (String(component.type).toLowerCase() !== 'header' || !Array.isArray(component.parameters)) continue;
    for (const parameter of component.parameters as Array<Record<string, unknown>>) {
      const media = parameter[String(parameter.type).toLowerCase()];
      if (media && typeof media === 'object' && 'id' in media)
        ids.push(String((media as { id: unknown }).id));
    }
  }
  return ids;
}
