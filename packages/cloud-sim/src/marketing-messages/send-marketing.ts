import type { SandboxContext } from '../context';
import { GraphError, invalidParameter } from '../errors';
import { sendTemplateMessage } from '../messages/send-message';
import type { SendAnswer } from '../messages/send-message';
import { parseSendRequest } from '../messages/validate-send';
import type { PhoneNumber } from '../state';
import { parseBidMultiplier } from '../templates/max-price';

const TERMS_MESSAGE = 'You must accept the Marketing Messages Lite API terms to use the API.';

// Meta's answers as partners report them (360dialog's MM API "expected errors"): the terms error carries
// code 131055 under a "(#200)" message, the category error the same code under "(#131055)".

/** A send that is not a template: MM API sends marketing templates only. */
export function notATemplate(): GraphError {
  return new GraphError(400, 100, '(#100) Invalid parameter', {
    details: 'Message must be a template message.',
  });
}

/** The WABA's portfolio has not signed the MM API terms, or the WABA may not use the API. */
export function termsNotAccepted(): GraphError {
  return new GraphError(400, 131055, `(#200) ${TERMS_MESSAGE}`, { details: TERMS_MESSAGE });
}

/** A utility or authentication template sent through the MM API. */
export function notMarketingTemplate(): GraphError {
  return new GraphError(400, 131055, '(#131055) Method not allowed', {
    details: 'Only marketing template messages are supported',
  });
}

/** `message_activity_sharing`: a boolean (form bodies carry it as "true" or "false"). */
function checkActivitySharing(value: unknown): void {
  if (value === undefined || typeof value === 'boolean' || value === 'true' || value === 'false') return;
  throw invalidParameter('message_activity_sharing must be a boolean');
}

/**
 * `POST /{phone-number-id}/marketing_messages`, after the token, the number and the faults: a template, from an
 * onboarded WABA, of the MARKETING category; then exactly a `/messages` template send (limits, pricing,
 * statuses), recorded as accepted by `marketing_messages`.
 */
export function sendMarketingMessage(
  ctx: SandboxContext,
  phone: PhoneNumber,
  params: Record<string, unknown>,
): SendAnswer {
  if (params.type !== 'template') throw notATemplate();
  checkActivitySharing(params.message_activity_sharing);
  parseBidMultiplier(params.bid_spec);
  const waba = ctx.state.findWaba(phone.wabaId);
  if (!waba || !ctx.state.marketingMessages.isOnboarded(waba.id, waba.businessId)) throw termsNotAccepted();
  const send = parseSendRequest(params);
  const template = ctx.state.templates.findByNameAndLanguage(
    phone.wabaId,
    send.templateName,
    send.languageCode,
  );
  // A template that is missing, paused or not approved answers as at `/messages` (sendTemplateMessage).
  if (template?.status === 'APPROVED' && template.category !== 'MARKETING') throw notMarketingTemplate();
  return sendTemplateMessage(ctx, phone, params, 'marketing_messages');
}
