import { ErrorResponseSchema, PhoneNumberListResponseSchema } from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { NumbersService } from './numbers-service';

export function numbersRoutes(numbers: NumbersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/meta/phone/whatsapp/',
      {
        schema: {
          tags: ['numbers'],
          summary: 'The WhatsApp numbers of the selected account (X-WABA-ID)',
          response: {
            200: PhoneNumberListResponseSchema,
            403: ErrorResponseSchema,
            502: ErrorResponseSchema,
          },
        },
      },
      async (request) => ({ data: await numbers.list(request.waba!) }),
    );
  };
}
