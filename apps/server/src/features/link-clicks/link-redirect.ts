import { LINK_MESSAGES } from '@herald/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Pool } from '../../db/pool';
import type { SecretBox } from '../../security/secret-box';
import { ClickWriter } from './click-writer';
import { cleanClickId, linkDestination } from './link-clicks-repo';
import { readLinkToken, TEST_LINK_TOKEN } from '../../security/link-token';
import { isPreviewRequest } from './preview-requests';

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1><p>${text}</p></body></html>`;
const GONE_PAGE = page('Link not found', LINK_MESSAGES.linkGone);
const TEST_PAGE = page('Tracked link', LINK_MESSAGES.testLink);

/**
 * `GET /l/{token}`: a recipient's tracked link. Records their click (not a preview's) and answers 302 to the
 * destination their broadcast names; the destination only ever comes from Herald's own database, so the route
 * cannot be made to send anyone elsewhere. Anything else (a token Herald did not sign, a message or broadcast
 * since deleted) answers a plain 404 page.
 */
export function linkRedirectRoutes(deps: { pool: Pool; secrets: SecretBox }): FastifyPluginAsync {
  return async (app) => {
    const clicks = new ClickWriter(deps.pool);
    app.get<{ Params: { token: string }; Querystring: Record<string, unknown> }>(
      '/l/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        if (request.params.token === TEST_LINK_TOKEN)
          return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(TEST_PAGE);
        const target = readLinkToken(deps.secrets, request.params.token);
        const destination = !target
          ? null
          : isPreviewRequest(request)
            ? await linkDestination(deps.pool, target)
            : await clicks.record(target, cleanClickId(request.query.click_id));
        // The token must not travel on to the destination in a Referer, nor a redirect be cached past a click.
        reply.header('referrer-policy', 'no-referrer').header('cache-control', 'private, no-store');
        if (!destination) return reply.code(404).type('text/html; charset=utf-8').send(GONE_PAGE);
        return reply.redirect(destination, 302);
      },
    );
  };
}
