import {
  DASHBOARD_CSV_COLUMNS,
  DashboardHeaderResponseSchema,
  DashboardQuerySchema,
  DashboardResponseSchema,
  DashboardSeenRequestSchema,
  DashboardSeenResponseSchema,
  ErrorResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Pool } from '../../db/pool';
import { markSeen, readHeader } from './account-events';
import { dashboardCsv } from './dashboard-csv';
import type { DashboardService } from './dashboard-service';

/** The Dashboard's figures and the header's badges, inside the business (X-WABA-ID) scope. */
export function dashboardRoutes(dashboard: DashboardService, pool: Pool): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/dashboard/',
      {
        schema: {
          tags: ['dashboard'],
          summary: 'The account’s figures for a range of days in a time zone, against the previous period',
          querystring: DashboardQuerySchema,
          response: { 200: DashboardResponseSchema, 400: ErrorResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => dashboard.read(request.waba!, request.query),
    );

    app.get(
      '/dashboard/export.csv',
      {
        schema: {
          tags: ['dashboard'],
          summary: `The daily figures of the range as CSV (${DASHBOARD_CSV_COLUMNS.join(', ')})`,
          querystring: DashboardQuerySchema,
          response: { 200: z.string(), 400: ErrorResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const figures = await dashboard.read(request.waba!, request.query);
        return reply
          .type('text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="herald-dashboard-${figures.range.from}-to-${figures.range.to}.csv"`,
          )
          .send(dashboardCsv(figures.days));
      },
    );

    app.get(
      '/dashboard/header',
      {
        schema: {
          tags: ['dashboard'],
          summary: 'The Customers badge (contact count) and the bell (latest events, unread count)',
          response: { 200: DashboardHeaderResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => readHeader(pool, request.waba!.id, request.user!.user_id),
    );

    app.post(
      '/dashboard/header/seen',
      {
        schema: {
          tags: ['dashboard'],
          summary: 'Marks the bell’s events seen up to now (or up_to)',
          body: DashboardSeenRequestSchema,
          response: { 200: DashboardSeenResponseSchema, 400: ErrorResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => ({
        unread: await markSeen(pool, request.waba!.id, request.user!.user_id, request.body?.up_to),
      }),
    );
  };
}
