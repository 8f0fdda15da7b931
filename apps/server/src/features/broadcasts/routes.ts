import {
  BROADCAST_HISTORY_CSV_COLUMNS,
  BROADCAST_REPORT_CSV_COLUMNS,
  BroadcastActionBodySchema,
  BroadcastActionParamsSchema,
  BroadcastActionResponseSchema,
  BroadcastCreateRequestSchema,
  BroadcastCreateResponseSchema,
  BroadcastEstimateRequestSchema,
  BroadcastEstimateResponseSchema,
  BroadcastListQuerySchema,
  BroadcastListResponseSchema,
  BroadcastReportParamsSchema,
  BroadcastReportQuerySchema,
  BroadcastReportResponseSchema,
  ErrorResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageUrl } from '../../page-url';
import type { BroadcastsService } from './broadcasts-service';
import { sendCsv } from './report/send-csv';

/** The broadcast calls, inside the business (X-WABA-ID) scope. */
export function broadcastsRoutes(broadcasts: BroadcastsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/broadcast/create/',
      {
        schema: {
          tags: ['broadcasts'],
          summary: 'Create a broadcast: send now or at scheduled_time (Unix seconds)',
          body: BroadcastCreateRequestSchema,
          response: {
            201: BroadcastCreateResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request, reply) => reply.code(201).send(await broadcasts.create(request.waba!, request.body)),
    );

    app.post(
      '/broadcast/estimate/',
      {
        schema: {
          tags: ['broadcasts'],
          summary:
            'What a broadcast to this audience would take: recipients, new recipients for the 24-hour limit, +1 (US) numbers, the limit',
          body: BroadcastEstimateRequestSchema,
          response: {
            200: BroadcastEstimateResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) => broadcasts.estimate(request.waba!, request.body),
    );

    app.get(
      '/broadcast/create/',
      {
        schema: {
          tags: ['broadcasts'],
          summary: 'The selected account’s broadcasts with delivery percentages and summary totals',
          querystring: BroadcastListQuerySchema,
          response: { 200: BroadcastListResponseSchema, 400: ErrorResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) =>
        broadcasts.list(request.waba!, request.query, (page) =>
          pageUrl(request, {
            page,
            search: request.query.search,
            sort: request.query.sort,
            from: request.query.from,
            to: request.query.to,
            tz: request.query.from || request.query.to ? request.query.tz : undefined,
          }),
        ),
    );

    app.get(
      '/broadcast/export.csv',
      {
        schema: {
          tags: ['broadcasts'],
          summary: `The history's list under its filter (from, to, tz, search, sort) as CSV (${BROADCAST_HISTORY_CSV_COLUMNS.join(', ')})`,
          querystring: BroadcastListQuerySchema,
          response: { 200: z.string(), 400: ErrorResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request, reply) => sendCsv(reply, await broadcasts.exportHistory(request.waba!, request.query)),
    );

    app.get(
      '/broadcast/:id/recipients/export.csv',
      {
        schema: {
          tags: ['broadcasts'],
          summary: `A delivery report's recipients under its filter (outcome, replied) as CSV, streamed (${BROADCAST_REPORT_CSV_COLUMNS.join(', ')})`,
          params: BroadcastReportParamsSchema,
          querystring: BroadcastReportQuerySchema,
          response: {
            200: z.string(),
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request, reply) =>
        sendCsv(reply, await broadcasts.exportReport(request.waba!, request.params.id, request.query)),
    );

    app.post(
      '/broadcast/:id/:action/',
      {
        schema: {
          tags: ['broadcasts'],
          summary:
            'Pause a sending broadcast, resume a paused one (optionally with a new spend_cap, or null for none), or cancel one not finished',
          params: BroadcastActionParamsSchema,
          body: BroadcastActionBodySchema.nullish(),
          response: {
            200: BroadcastActionResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
            409: ErrorResponseSchema,
          },
        },
      },
      async (request) =>
        broadcasts.act(request.waba!, request.params.id, request.params.action, request.body ?? undefined),
    );

    app.get(
      '/broadcast/:id/recipients/',
      {
        schema: {
          tags: ['broadcasts'],
          summary:
            'A broadcast’s delivery report: outcome counts and a page of recipients (optionally of one outcome)',
          params: BroadcastReportParamsSchema,
          querystring: BroadcastReportQuerySchema,
          response: {
            200: BroadcastReportResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request) =>
        broadcasts.report(request.waba!, request.params.id, request.query, (page) =>
          pageUrl(request, {
            page,
            outcome: request.query.outcome,
            replied: request.query.replied === undefined ? undefined : String(request.query.replied),
          }),
        ),
    );
  };
}
