import type { SandboxContext } from '../context';
import { GraphError, invalidParameter } from '../errors';
import type { Waba } from '../state';
import { DAY_SECONDS, dayOf } from './template-analytics-ledger';
import type { ClickedButtonType, TemplateAnalyticsLedger } from './template-analytics-ledger';
import type { TemplateAnalyticsQuery } from './template-analytics-params';
import type { MessageTemplate } from './template-store';

/** Meta counts button taps only on templates of these categories (Analytics guide, template analytics). */
const CLICK_CATEGORIES = new Set(['MARKETING', 'UTILITY']);

export interface TemplateDataPoint {
  template_id: string;
  start: number;
  end: number;
  sent?: number;
  delivered?: number;
  read?: number;
  clicked?: Array<{ type: ClickedButtonType; button_content: string; count: number }>;
}

export interface TemplateAnalyticsAnswer {
  data: Array<{ granularity: 'DAILY'; product_type: 'cloud_api'; data_points: TemplateDataPoint[] }>;
}

/**
 * Meta answers template analytics only for a WABA that confirmed them (`POST /{waba-id}?is_enabled_for_insights=
 * true`). Meta documents the step but not the error a WABA without it gets: the sandbox answers Graph's
 * invalid-parameter error (400, code 100) naming `is_enabled_for_insights`, so a caller can tell what to do.
 */
export function requireInsightsEnabled(waba: Waba): void {
  if (waba.isEnabledForInsights === true) return;
  throw new GraphError(
    400,
    100,
    `(#100) Template analytics is not enabled for WhatsApp Business Account ${waba.id}: confirm it first ` +
      `with POST /${waba.id}?is_enabled_for_insights=true`,
    { details: 'is_enabled_for_insights' },
  );
}

/** `is_enabled_for_insights` as a request gives it: true or false, as JSON or as form/query text. */
export function readInsightsFlag(value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidParameter('is_enabled_for_insights must be true or false');
}

/**
 * `POST /{waba-id}?is_enabled_for_insights=true` → `{id}` (the answer Meta's guide shows). Meta says template
 * analytics cannot be turned off once confirmed: `false` on an enabled WABA is refused, on another a no-op.
 */
export function setInsightsEnabled(waba: Waba, enabled: boolean): { id: string } {
  if (!enabled && waba.isEnabledForInsights === true) {
    throw invalidParameter('is_enabled_for_insights: template analytics cannot be disabled once confirmed');
  }
  if (enabled) waba.isEnabledForInsights = true;
  return { id: waba.id };
}

/** The template ids, each a template of this WABA; another WABA's (or an unknown) id is Graph's not-found error. */
function templatesOfWaba(ctx: SandboxContext, wabaId: string, ids: string[]): MessageTemplate[] {
  return ids.map((id) => {
    const template = ctx.state.templates.find(id);
    if (!template || template.wabaId !== wabaId) {
      throw new GraphError(
        404,
        100,
        `(#100) Invalid parameter: template_ids: template ${id} does not exist in WhatsApp Business Account ${wabaId}`,
        { details: 'template_ids' },
      );
    }
    return template;
  });
}

function dataPoint(
  ledger: TemplateAnalyticsLedger,
  templateId: string,
  day: number,
  metrics: ReadonlySet<string>,
): TemplateDataPoint {
  const counted = ledger.find(templateId, day);
  const point: TemplateDataPoint = { template_id: templateId, start: day, end: day + DAY_SECONDS };
  if (metrics.has('SENT')) point.sent = counted?.sent ?? 0;
  if (metrics.has('DELIVERED')) point.delivered = counted?.delivered ?? 0;
  if (metrics.has('READ')) point.read = counted?.read ?? 0;
  // Requested but nothing tapped: an empty list (Meta's guide shows no example of it).
  if (metrics.has('CLICKED')) {
    point.clicked = (counted?.clicks ?? []).map((c) => ({
      type: c.type,
      button_content: c.buttonContent,
      count: c.count,
    }));
  }
  return point;
}

/**
 * Meta's template analytics for a WABA: one data point per template per UTC day of the range, zeros included,
 * only the metrics asked for. Days after today are left out (nothing can have happened on them). Ordered by
 * day, then in the order of `template_ids`.
 */
export function templateAnalytics(
  ctx: SandboxContext,
  waba: Waba,
  query: TemplateAnalyticsQuery,
  now: number,
): TemplateAnalyticsAnswer {
  requireInsightsEnabled(waba);
  const templates = templatesOfWaba(ctx, waba.id, query.templateIds);
  const metrics = new Set<string>(query.metricTypes);
  const last = Math.min(query.end, dayOf(now) + DAY_SECONDS);
  const points: TemplateDataPoint[] = [];
  for (let day = query.start; day < last; day += DAY_SECONDS) {
    for (const template of templates) {
      points.push(dataPoint(ctx.messaging.templateAnalytics, template.id, day, metrics));
    }
  }
  return { data: [{ granularity: 'DAILY', product_type: 'cloud_api', data_points: points }] };
}

/** Meta counts clicks of a template's URL buttons unless its `cta_url_link_tracking_opted_out` is true. */
export function tracksUrlClicks(template: MessageTemplate): boolean {
  return CLICK_CATEGORIES.has(template.category) && template.ctaUrlLinkTrackingOptedOut !== true;
}

function buttonsOf(template: MessageTemplate): Record<string, unknown>[] {
  const component = template.components.find((c) => String(c.type).toUpperCase() === 'BUTTONS');
  return (Array.isArray(component?.buttons) ? component.buttons : []) as Record<string, unknown>[];
}

const firstButtonIndex = (template: MessageTemplate, type: string) =>
  buttonsOf(template).findIndex((b) => String(b.type ?? '').toUpperCase() === type);

/** The text of the template's button at `index`, if it is a button of that type (`URL`, `QUICK_REPLY`). */
function buttonText(template: MessageTemplate, type: string, index: number): string | undefined {
  const button = buttonsOf(template)[index];
  if (String(button?.type ?? '').toUpperCase() !== type || typeof button?.text !== 'string') return undefined;
  return button.text;
}

/**
 * A person tapped the template's URL button at `index` (null: its first URL button, as link-clicks.ts picks it):
 * counted under the button's text, on the tap's UTC day, unless the template opted out of link tracking or is
 * not MARKETING/UTILITY. A body link is not a button and is not counted (template analytics reports buttons).
 */
export function recordUrlButtonClick(
  ctx: SandboxContext,
  template: MessageTemplate,
  index: number | null,
  nowMs: number,
): void {
  const text = buttonText(template, 'URL', index ?? firstButtonIndex(template, 'URL'));
  if (text === undefined || !tracksUrlClicks(template)) return;
  ctx.messaging.templateAnalytics.recordClick(template.id, template.wabaId, 'url_button', text, nowMs / 1000);
  ctx.persistence?.changed();
}

/**
 * A person answered a template message (`context_id`) by tapping one of its quick-reply buttons: counted under
 * the button's text. A reply whose text is none of the template's quick replies is an ordinary reply.
 */
export function recordQuickReplyTap(
  ctx: SandboxContext,
  contextWamid: string,
  tappedText: string,
  nowMs: number,
): void {
  const message = ctx.messaging.accepted.find(contextWamid);
  if (!message || message.type !== undefined) return;
  const phone = ctx.state.findPhoneNumber(message.phoneNumberId);
  const template =
    phone && ctx.state.templates.findByNameAndLanguage(phone.wabaId, message.templateName, message.language);
  if (!template || !CLICK_CATEGORIES.has(template.category)) return;
  const count = buttonsOf(template).length;
  for (let index = 0; index < count; index++) {
    if (buttonText(template, 'QUICK_REPLY', index) !== tappedText) continue;
    ctx.messaging.templateAnalytics.recordClick(
      template.id,
      template.wabaId,
      'quick_reply_button',
      tappedText,
      nowMs / 1000,
    );
    ctx.persistence?.changed();
    return;
  }
}
