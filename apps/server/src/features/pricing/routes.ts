import {
  BroadcastCostsQuerySchema,
  BroadcastCostsResponseSchema,
  BroadcastEstimateRequestSchema,
  CostEstimateResponseSchema,
  BroadcastReportParamsSchema,
  ErrorResponseSchema,
  MetaBroadcastFigureSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MetaFiguresService } from './meta-figures';
import type { PricingService } from './pricing-service';

/** What broadcasts cost, before (estimate) and after (from stored pricing); X-WABA-ID scope. */
export function pricingRoutes(pricing: PricingService, meta: MetaFiguresService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/pricing/estimate/',
      {
        schema: {
          tags: ['pricing'],
          summary: 'What a broadcast to this audience would cost at today’s rates, by market (USD)',
          body: BroadcastEstimateRequestSchema,
          response: {
            200: CostEstimateResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) => pricing.estimate(request.waba!, request.body),
    );

    app.get(
      '/pricing/broadcasts/',
      {
        schema: {
          tags: ['pricing'],
          summary:
            'The broadcasts’ billable and free messages and their cost from the pricing Meta stated (USD)',
          querystring: BroadcastCostsQuerySchema,
          response: {
            200: BroadcastCostsResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) => ({ costs: await pricing.broadcastCosts(request.waba!, request.query.ids) }),
    );

    app.get(
      '/pricing/broadcasts/:id/meta/',
      {
        schema: {
          tags: ['pricing'],
          summary:
            'Meta’s own figure (pricing_analytics) for the broadcast’s number over its time range, beside Herald’s',
          params: BroadcastReportParamsSchema,
          response: {
            200: MetaBroadcastFigureSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
            502: ErrorResponseSchema,
          },
        },
      },
      async (request) => meta.broadcastFigure(request.waba!, request.params.id),
    );
  };
}
