import {
  accountSettingsResponseSchema,
  accountSettingsUpdateSchema,
  ErrorResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SettingsService } from './settings-service';

/** GET and PUT /settings/: the selected account's settings (X-WABA-ID scope). */
export function settingsRoutes(settings: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/',
      {
        schema: {
          tags: ['settings'],
          summary: 'The account’s settings (the defaults until it saves any) and whether e-mail can be sent',
          response: { 200: accountSettingsResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => settings.read(request.waba!),
    );

    app.put(
      '/settings/',
      {
        schema: {
          tags: ['settings'],
          summary: 'Saves any of the account’s settings; answers all of them as stored',
          // Strict: a misspelt option is refused by name instead of being ignored while the answer says 200.
          body: accountSettingsUpdateSchema.strict(),
          response: {
            200: accountSettingsResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
          },
        },
      },
      async (request) => settings.save(request.waba!, request.body),
    );
  };
}
