import {
  BroadcastTestRequestSchema,
  BroadcastTestResponseSchema,
  ErrorResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Pool } from '../../db/pool';
import type { SecretBox } from '../../security/secret-box';
import { MessageSender } from './sending/message-sender';
import { TestSendService } from './sending/test-send';

/**
 * POST /broadcast/test/ inside the business (X-WABA-ID) scope. The plugin owns its Cloud API client (a few
 * keep-alive sockets), closed with the app.
 */
export function testSendRoutes(deps: {
  pool: Pool;
  secrets: SecretBox;
  graphApiBase: string;
  graphApiVersion: string;
  /** What a template's URL button starts with to be a tracked link (trackedLinkPrefix of PUBLIC_URL). */
  trackedLinkPrefix?: string;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const sender = new MessageSender(deps.graphApiBase, deps.graphApiVersion, 4);
    app.addHook('onClose', () => sender.close());
    const service = new TestSendService({
      pool: deps.pool,
      sender,
      secrets: deps.secrets,
      trackedLinkPrefix: deps.trackedLinkPrefix,
    });
    app.post(
      '/broadcast/test/',
      {
        schema: {
          tags: ['broadcasts'],
          summary:
            'Send the chosen template, filled with one contact’s values, to one number: a test, not a broadcast',
          body: BroadcastTestRequestSchema,
          response: {
            200: BroadcastTestResponseSchema,
            400: ErrorResponseSchema,
            403: ErrorResponseSchema,
            404: ErrorResponseSchema,
            429: ErrorResponseSchema,
          },
        },
      },
      async (request) => service.send(request.waba!, request.body),
    );
  };
}
