import type { FastifyInstance } from 'fastify';
import { authenticate, grantedWaba } from '../auth';
import type { SandboxContext } from '../context';
import { pickFields } from '../fields';
import { wabaNode } from '../graph-objects';
import { wabaOnboardingFields } from '../marketing-messages/onboarding-fields';
import { modifiersOf, splitTopLevel } from '../graph-filters';
import { readAnalyticsQuery } from '../pricing/analytics-params';
import { pricingAnalytics } from '../pricing/pricing-analytics';
import type { Waba } from '../state';
import { templateAnalyticsFields } from './template-analytics';

interface EdgeRequest {
  Params: { id: string };
  Querystring: Record<string, string | undefined>;
}

const FIELD = 'pricing_analytics';
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * `GET /{waba-id}?fields=…`: the WABA node with its plain fields, plus `pricing_analytics` when one of the
 * fields is `pricing_analytics.start(…)…` (Meta's documented way to read it). Filters are checked first, so a bad
 * granularity or range answers Graph's error rather than a node without its analytics. `template_analytics` and
 * `is_enabled_for_insights` are answered beside it (template-analytics.ts).
 */
export function wabaWithFields(ctx: SandboxContext, waba: Waba, fields: string | undefined) {
  const parts = fields === undefined ? [] : splitTopLevel(fields);
  const analytics = parts.find((part) => part === FIELD || part.startsWith(`${FIELD}.`));
  const plain = parts.filter((part) => part !== analytics).join(',');
  const node = {
    ...pickFields(wabaNode(waba), analytics && plain === '' ? 'id' : fields && plain),
    ...wabaOnboardingFields(ctx, waba, parts),
    ...templateAnalyticsFields(ctx, waba, parts),
  };
  if (analytics === undefined) return node;
  const modifiers = modifiersOf(analytics);
  const query = readAnalyticsQuery((name) => modifiers[name], nowSeconds());
  return { ...node, [FIELD]: pricingAnalytics(ctx.messaging.billing, waba.id, query) };
}

/** The `/{waba-id}/pricing_analytics` edge of Graph's reference: the same filters as query parameters. */
export function registerPricingAnalyticsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<EdgeRequest>('/:id/pricing_analytics', async (request) => {
    const token = authenticate(request, ctx.state);
    const waba = grantedWaba(token, ctx.state, request.params.id, 'GET');
    const query = readAnalyticsQuery((name) => request.query[name], nowSeconds());
    return pricingAnalytics(ctx.messaging.billing, waba.id, query);
  });
}
