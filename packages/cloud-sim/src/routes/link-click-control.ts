import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { clickLink, parseClickChoice } from '../marketing-messages/link-clicks';
import { requestParams } from '../request-params';

/**
 * `POST /__sandbox/messages/{wamid}/clicks` `{component?: "cta"|"body", button?: index}`: a WhatsApp user taps a
 * link in a message the sandbox accepted (marketing-messages/link-clicks.ts) → `{url, click_id, webhook}`.
 * Under `/__sandbox/`, so the control API's access rule covers it (control-access.ts).
 */
export function registerLinkClickControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: { wamid: string } }>('/__sandbox/messages/:wamid/clicks', async (request) => {
    const params = requestParams(request);
    const { wamid } = request.params;
    const result = clickLink(ctx, wamid, parseClickChoice(params));
    await ctx.log.append({
      method: 'POST',
      path: `/__sandbox/messages/${wamid}/clicks`,
      body: params,
      result,
    });
    return result;
  });
}
