import { ErrorResponseSchema, findUnsafeInput } from '@herald/contracts';
import { z } from 'zod';
import type { FastifyPluginAsync } from 'fastify';
import type { Pool } from '../../db/pool';
import { HttpError } from '../../http-error';
import { hasValidSignature } from './signature';
import { WebhookInbox } from './webhook-inbox';
import type { WebhookProcessor } from './webhook-processor';

export const WEBHOOK_PATH = '/webhooks/whatsapp';

/**
 * Meta's webhook endpoint. GET answers the subscription challenge; POST checks X-Hub-Signature-256 on the
 * raw bytes before parsing anything, stores the event and answers at once; the processor applies it after.
 */
export function webhookRoutes(deps: {
  pool: Pool;
  processor: WebhookProcessor;
  appSecret: string;
  verifyToken: string;
}): FastifyPluginAsync {
  return async (app) => {
    const inbox = new WebhookInbox(deps.pool);
    // Raw bytes: the signature covers them exactly, so JSON must not be parsed (and re-serialised) first.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );

    app.get<{ Querystring: Record<string, string | undefined> }>(
      WEBHOOK_PATH,
      { schema: { hide: true } },
      async (request, reply) => {
        const query = request.query;
        if (query['hub.mode'] === 'subscribe' && query['hub.verify_token'] === deps.verifyToken) {
          return reply.type('text/plain').send(query['hub.challenge'] ?? '');
        }
        throw HttpError.field(403, 'hub.verify_token', 'Webhook verification failed');
      },
    );

    app.post(
      WEBHOOK_PATH,
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Cloud API webhooks (signed with the app secret)',
          response: {
            200: z.object({ received: z.literal(true) }),
            401: ErrorResponseSchema,
            400: ErrorResponseSchema,
          },
        },
      },
      async (request, reply) => {
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw HttpError.field(400, 'body', 'Expected a JSON body');
        const signature = request.headers['x-hub-signature-256'];
        if (!hasValidSignature(deps.appSecret, raw, Array.isArray(signature) ? signature[0] : signature)) {
          throw HttpError.field(401, 'X-Hub-Signature-256', 'Invalid webhook signature');
        }
        const text = raw.toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw HttpError.field(400, 'body', 'The webhook body is not valid JSON');
        }
        // The contracts' one input rule: a NUL, a lone surrogate or nesting deeper than Postgres's jsonb parser
        // can hold (its stack overflows: 54001) is the sender's fault, refused before it reaches the database.
        const unsafe = findUnsafeInput(parsed, 'body');
        if (unsafe) throw HttpError.field(400, unsafe.field, unsafe.message);
        await inbox.store(text).catch((error: { code?: string }) => {
          // Data exceptions (class 22): valid JSON that jsonb cannot hold that the rule above did not foresee.
          if (error.code?.startsWith('22'))
            throw HttpError.field(400, 'body', 'The webhook body cannot be stored as JSON');
          throw error;
        });
        deps.processor.schedule();
        return reply.code(200).send({ received: true });
      },
    );
  };
}
