import type { SandboxContext } from '../context';
import { invalidParameter } from '../errors';
import type { PhoneNumber } from '../state';
import { checkFreeFormContent, FREE_FORM_TYPES, isFreeFormType } from './free-form-content';
import { pairRateLimitHit, throughputExceeded } from './message-errors';
import type { FailureKind } from './message-errors';
import { isUndeliverable } from './recipient-rules';
import { messageInfo, sendAnswer } from './send-message';
import type { SendAnswer } from './send-message';
import { planFor } from './send-fate';
import { SERVICE_CATEGORY } from './status-payload';
import { FREE_FORM_TTL_SECONDS } from '../templates/time-to-live';
import { parseSendEnvelope } from './validate-send';

/**
 * A message that is not a template (text, media, interactive, …). Meta accepts it whatever the window, then
 * delivers it only inside a customer service window (the user wrote to this number in the last 24 hours);
 * outside one its `failed` status carries 131047. It reaches no one towards the messaging limit and is free.
 */
export function sendFreeFormMessage(
  ctx: SandboxContext,
  phone: PhoneNumber,
  params: Record<string, unknown>,
): SendAnswer {
  const { messaging, config } = ctx;
  const send = parseSendEnvelope(params);
  if (!isFreeFormType(send.type)) {
    throw invalidParameter(`type must be template or one of ${FREE_FORM_TYPES.join(', ')}`);
  }
  const content = checkFreeFormContent(
    send.type,
    params,
    (id) => ctx.state.media.findFor(id, phone.id) !== undefined,
  );

  const now = Date.now();
  const portfolioId = ctx.state.findWaba(phone.wabaId)?.businessId ?? phone.wabaId;
  if (!messaging.throughput.take(phone.id, phone.throughputLevel, now)) throw throughputExceeded();
  const pair = { burst: config.pairRateBurst, windowMs: config.pairRateWindowMs };
  if (!messaging.pairRate.take(phone.id, send.digits, pair, now)) throw pairRateLimitHit();
  const inWindow = messaging.reach.inServiceWindow(portfolioId, phone.id, send.digits, now);
  const failure: FailureKind | null = isUndeliverable(send.digits)
    ? 'undeliverable'
    : inWindow
      ? null
      : 're-engagement';

  const wamid = messaging.wamids.next(send.digits);
  const record = messaging.accepted.add({
    wamid,
    phoneNumberId: phone.id,
    to: send.digits,
    templateName: '',
    language: '',
    type: send.type,
    bizOpaqueCallbackData: send.bizOpaqueCallbackData,
    endpoint: 'messages',
    acceptedAt: now,
    ttlSeconds: FREE_FORM_TTL_SECONDS,
    parameters: {},
  });
  const info = messageInfo(ctx, phone, portfolioId, send, wamid, SERVICE_CATEGORY, failure);
  const unreachable = messaging.unreachable.has(send.digits);
  const plan = planFor(ctx, { failure, held: null, counts: false, unreachable }, now);
  messaging.statuses.schedule(info, plan);
  messaging.expiry.watch(info, record, plan);
  const answer = sendAnswer(send, wamid, 'accepted');
  ctx.log.enqueue({
    method: 'POST',
    path: `/${phone.id}/messages`,
    body: { ...params, [send.type]: content },
    result: answer,
  });
  return answer;
}
