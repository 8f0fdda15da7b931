import { LinkSettingsResponseSchema, trackedButtonUrl, trackedLinkPrefix } from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** What a template's URL button holds so Herald counts who clicks (X-WABA-ID scope). */
export function linkSettingsRoutes(publicUrl: string): FastifyPluginAsyncZod {
  const prefix = trackedLinkPrefix(publicUrl);
  return async (app) => {
    app.get(
      '/broadcast/links/',
      {
        schema: {
          tags: ['broadcasts'],
          summary: 'The URL a template’s button holds to be a tracked link',
          response: { 200: LinkSettingsResponseSchema },
        },
      },
      async () => ({ tracked_link_prefix: prefix, tracked_button_url: trackedButtonUrl(prefix) }),
    );
  };
}
