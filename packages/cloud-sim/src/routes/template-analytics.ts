import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, grantedWaba } from '../auth';
import type { SandboxContext } from '../context';
import { modifiersOf } from '../graph-filters';
import { requestParams } from '../request-params';
import type { AccessToken, Waba } from '../state';
import { readInsightsFlag, setInsightsEnabled, templateAnalytics } from '../templates/template-analytics';
import type { TemplateAnalyticsAnswer } from '../templates/template-analytics';
import { readTemplateAnalyticsQuery } from '../templates/template-analytics-params';
import {
  applyLinkTrackingOptOut,
  editsOnlyLinkTracking,
  readLinkTrackingOptOut,
} from '../templates/template-link-tracking';
import type { MessageTemplate } from '../templates/template-store';
import { editTemplate } from './template-node-routes';

interface EdgeRequest {
  Params: { id: string };
  Querystring: Record<string, string | undefined>;
}

export const TEMPLATE_ANALYTICS_FIELD = 'template_analytics';
export const INSIGHTS_FIELD = 'is_enabled_for_insights';
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The WABA fields of template analytics in `GET /{waba-id}?fields=…`: `template_analytics.start(…)…` (Meta's
 * documented way to read it) and `is_enabled_for_insights` (a WABA field, not a default one: only when named).
 */
export function templateAnalyticsFields(
  ctx: SandboxContext,
  waba: Waba,
  parts: string[],
): { template_analytics?: TemplateAnalyticsAnswer; is_enabled_for_insights?: boolean } {
  const field = parts.find(
    (part) => part === TEMPLATE_ANALYTICS_FIELD || part.startsWith(`${TEMPLATE_ANALYTICS_FIELD}.`),
  );
  const answer: { template_analytics?: TemplateAnalyticsAnswer; is_enabled_for_insights?: boolean } = {};
  if (parts.includes(INSIGHTS_FIELD)) answer.is_enabled_for_insights = waba.isEnabledForInsights === true;
  if (field !== undefined) {
    const modifiers = modifiersOf(field);
    const now = nowSeconds();
    const query = readTemplateAnalyticsQuery((name) => modifiers[name], now);
    answer.template_analytics = templateAnalytics(ctx, waba, query, now);
  }
  return answer;
}

/** `POST /{waba-id}?is_enabled_for_insights=true`: confirms template analytics for the WABA → `{id}`. */
export async function postWabaNode(
  ctx: SandboxContext,
  request: FastifyRequest,
  waba: Waba,
): Promise<{ id: string } | undefined> {
  const params = requestParams(request);
  if (params[INSIGHTS_FIELD] === undefined) return undefined;
  const result = setInsightsEnabled(waba, readInsightsFlag(params[INSIGHTS_FIELD]));
  await ctx.log.append({ method: 'POST', path: `/${waba.id}`, body: params, result });
  return result;
}

/**
 * `POST /{template-id}` with `cta_url_link_tracking_opted_out`: alone, it changes only the opt-out, with no new
 * review (it changes nothing WhatsApp users see; Meta's docs are silent on a review for it). With other fields
 * it is an ordinary edit (template-node-routes.ts), and the opt-out is set once that edit succeeded.
 */
export async function editTemplateWithLinkTracking(
  ctx: SandboxContext,
  request: FastifyRequest,
  token: AccessToken,
  template: MessageTemplate,
): Promise<{ success: true }> {
  const params = requestParams(request);
  const optedOut = readLinkTrackingOptOut(params);
  if (optedOut !== undefined && editsOnlyLinkTracking(params)) {
    applyLinkTrackingOptOut(template, optedOut);
    template.lastUpdatedTime = new Date();
    const result = { success: true as const };
    await ctx.log.append({ method: 'POST', path: `/${template.id}`, body: params, result });
    return result;
  }
  const result = await editTemplate(ctx, request, token, template);
  applyLinkTrackingOptOut(template, optedOut);
  return result;
}

/** The `/{waba-id}/template_analytics` edge: the same filters as query parameters. */
export function registerTemplateAnalyticsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<EdgeRequest>('/:id/template_analytics', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'GET');
    const now = nowSeconds();
    const query = readTemplateAnalyticsQuery((name) => request.query[name], now);
    return templateAnalytics(ctx, waba, query, now);
  });
}
