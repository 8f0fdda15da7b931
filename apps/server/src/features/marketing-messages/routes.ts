import { ErrorResponseSchema, mmApiStatusResponseSchema } from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MmApiService } from './mm-api-service';

/** The selected account's Marketing Messages API onboarding (X-WABA-ID scope). */
export function marketingMessagesRoutes(service: MmApiService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/marketing-messages/',
      {
        schema: {
          tags: ['marketing-messages'],
          summary: 'The account’s Marketing Messages API onboarding, as Meta says it now',
          response: { 200: mmApiStatusResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => service.status(request.waba!),
    );

    app.post(
      '/marketing-messages/onboarding/',
      {
        schema: {
          tags: ['marketing-messages'],
          summary:
            'Asks Meta to invite the business portfolio’s admins to accept the Marketing Messages API terms',
          response: {
            200: mmApiStatusResponseSchema,
            403: ErrorResponseSchema,
            409: ErrorResponseSchema,
            502: ErrorResponseSchema,
          },
        },
      },
      async (request) => service.start(request.waba!),
    );
  };
}
