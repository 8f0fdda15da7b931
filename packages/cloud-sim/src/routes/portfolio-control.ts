import type { FastifyInstance } from 'fastify';
import { advancePortfolio, portfolioView, setPortfolioTier, unknownPortfolio } from '../account-health';
import type { SandboxContext } from '../context';
import { GraphError } from '../errors';
import { parsePacingRule } from '../messages/pacing';
import { requestParams } from '../request-params';
import { setQualityStatus } from '../templates/template-pause';

interface IdParams {
  Params: { id: string };
}

/**
 * Control endpoints for Meta's 2026 sending rules: portfolio messaging limits and their 24-hour window,
 * template pacing, templates paused or disabled mid-broadcast.
 */
export function registerPortfolioControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const portfolio = (id: string) => {
    if (!ctx.state.hasBusiness(id)) throw unknownPortfolio(id);
    return id;
  };

  app.get<IdParams>('/__sandbox/portfolios/:id', async (request) =>
    portfolioView(ctx, portfolio(request.params.id)),
  );

  app.post<IdParams>('/__sandbox/portfolios/:id', async (request) => {
    const params = requestParams(request);
    const id = portfolio(request.params.id);
    const result = setPortfolioTier(ctx, id, params);
    await ctx.log.append({ method: 'POST', path: `/__sandbox/portfolios/${id}`, body: params, result });
    return result;
  });

  app.post<IdParams>('/__sandbox/portfolios/:id/advance', async (request) => {
    const params = requestParams(request);
    const id = portfolio(request.params.id);
    const result = advancePortfolio(ctx, id, params);
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/portfolios/${id}/advance`,
      body: params,
      result: { reached_in_window: result.reached_in_window },
    });
    return result;
  });

  app.post<IdParams>('/__sandbox/templates/:id/status', async (request) => {
    const params = requestParams(request);
    const result = setQualityStatus(ctx, request.params.id, params);
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/templates/${request.params.id}/status`,
      body: params,
      result,
    });
    return result;
  });

  app.post<IdParams>('/__sandbox/templates/:id/pacing', async (request) => {
    const params = requestParams(request);
    const template = ctx.state.templates.find(request.params.id);
    if (!template) throw new GraphError(404, 100, `(#100) No message template with id ${request.params.id}`);
    const rule = parsePacingRule(params);
    ctx.messaging.pacing.set(template.id, rule);
    const result = {
      id: template.id,
      held_share: rule.heldShare,
      outcome: rule.outcome,
      after_ms: rule.afterMs,
    };
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/templates/${template.id}/pacing`,
      body: params,
      result,
    });
    return result;
  });
}
