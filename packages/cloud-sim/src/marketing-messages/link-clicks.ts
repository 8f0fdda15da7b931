import type { SandboxContext } from '../context';
import { GraphError, invalidParameter } from '../errors';
import { randomAlphanumeric } from '../random-strings';
import { stringParam } from '../request-params';
import { recordUrlButtonClick } from '../templates/template-analytics';
import { linkClickPayload } from '../webhooks/link-click-payload';
import { webhookTarget } from '../webhooks/webhook-target';
import { clickedLink, withClickId } from './link-click-url';
import type { ClickChoice } from './link-click-url';

/** Meta reports clicks on messages sent in the last 7 days only (track-click-events). */
export const CLICK_REPORTING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

// Both are opaque at Meta and their format is not documented: long random strings, safe in a query string.
const CLICK_ID_LENGTH = 32;
const TRACKING_TOKEN_LENGTH = 48;

/** The answer of `POST /__sandbox/messages/{wamid}/clicks`. */
export interface LinkClickResult {
  /** What the person's browser opens: the link, with Meta's `click_id` when Meta reports the click. */
  url: string;
  click_id: string | null;
  /** Whether the `marketing_messages_link_click` webhook was sent. */
  webhook: boolean;
}

/** `{component?: "cta"|"body" (cta), button?: index of a BUTTONS button (the first URL button)}`. */
export function parseClickChoice(params: Record<string, unknown>): ClickChoice {
  const component = stringParam(params, 'component') || 'cta';
  if (component !== 'cta' && component !== 'body') throw invalidParameter('component must be cta or body');
  const raw = params.button;
  if (raw === undefined || raw === null || raw === '') return { component, button: null };
  // Form bodies carry the index as text.
  const button = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof button !== 'number' || !Number.isInteger(button) || button < 0)
    throw invalidParameter('button must be a whole number: the index of a button of the template');
  if (component !== 'cta') throw invalidParameter('button goes with component cta only');
  return { component, button };
}

/**
 * A WhatsApp user taps a link in a template message the sandbox accepted. Meta reports it (a `click_id` on the
 * URL and the `marketing_messages_link_click` webhook) only for a message sent through the Marketing Messages
 * API within the last 7 days; any other tap just opens the link. Each tap is a new click, as at Meta.
 */
export function clickLink(
  ctx: SandboxContext,
  wamid: string,
  choice: ClickChoice,
  now = Date.now(),
): LinkClickResult {
  const message = ctx.messaging.accepted.find(wamid);
  if (!message) throw new GraphError(404, 100, `(#100) No accepted message with id ${wamid}`);
  if (message.type !== undefined)
    throw invalidParameter(
      `component: message ${wamid} is a ${message.type} message; only template messages have links to tap here`,
    );
  const phone = ctx.state.findPhoneNumber(message.phoneNumberId);
  // The template as it is now: an edit since the send changes the links, as it would for a message re-read.
  const template =
    phone && ctx.state.templates.findByNameAndLanguage(phone.wabaId, message.templateName, message.language);
  if (!phone || !template)
    throw new GraphError(
      404,
      100,
      `(#100) Template ${message.templateName} (${message.language}) of message ${wamid} is no longer in the sandbox`,
    );
  const url = clickedLink(template, message.parameters, choice);
  // Template analytics counts a button tap on any send, whichever endpoint, unless the template opted out.
  if (choice.component === 'cta') recordUrlButtonClick(ctx, template, choice.button, now);
  const reported =
    message.endpoint === 'marketing_messages' && now - message.acceptedAt <= CLICK_REPORTING_WINDOW_MS;
  if (!reported) return { url, click_id: null, webhook: false };

  const clickId = randomAlphanumeric(CLICK_ID_LENGTH);
  const payload = linkClickPayload({
    wabaId: phone.wabaId,
    phoneNumberId: phone.id,
    displayDigits: phone.digits,
    component: choice.component,
    clickId,
    trackingToken: randomAlphanumeric(TRACKING_TOKEN_LENGTH),
    timestamp: Math.floor(now / 1000),
  });
  ctx.webhooks.send(webhookTarget(ctx, phone.wabaId), payload, { field: 'messages', wabaId: phone.wabaId });
  return { url: withClickId(url, clickId), click_id: clickId, webhook: true };
}
