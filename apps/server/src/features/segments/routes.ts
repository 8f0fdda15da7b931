import {
  ErrorResponseSchema,
  SegmentCountRequestSchema,
  SegmentCountResponseSchema,
  SegmentFieldsResponseSchema,
  SegmentListResponseSchema,
  SegmentRequestSchema,
  SegmentSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SegmentsService } from './segments-service';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const IdParams = z.object({
  id: z.coerce.number().int('must be a segment id').positive('must be a segment id'),
});

/** Saved segments of the business account (X-WABA-ID scope), their live count and what rules can name. */
export function segmentsRoutes(segments: SegmentsService): FastifyPluginAsyncZod {
  return async (app) => {
    const schema = { tags: ['segments'] };
    app.get(
      '/segments/',
      {
        schema: {
          ...schema,
          summary: 'The saved segments, by name',
          response: { 200: SegmentListResponseSchema },
        },
      },
      async (request) => ({ results: await segments.list(request.waba!.id) }),
    );
    app.get(
      '/segments/fields/',
      {
        schema: {
          ...schema,
          summary: 'What rules can name: the contact columns and Meta’s pricing markets',
          response: { 200: SegmentFieldsResponseSchema },
        },
      },
      async (request) => segments.fields(request.waba!.id),
    );
    app.post(
      '/segments/count/',
      {
        schema: {
          ...schema,
          summary: 'How many contacts the rules match now, and how many of them can be messaged',
          body: SegmentCountRequestSchema,
          response: { 200: SegmentCountResponseSchema, ...errors },
        },
      },
      async (request) => segments.count(request.waba!.id, request.body.definition),
    );
    app.post(
      '/segments/',
      {
        schema: {
          ...schema,
          summary: 'Save a segment',
          body: SegmentRequestSchema,
          response: { 201: SegmentSchema, ...errors, 409: ErrorResponseSchema },
        },
      },
      async (request, reply) => reply.code(201).send(await segments.create(request.waba!.id, request.body)),
    );
    app.get(
      '/segments/:id/',
      {
        schema: {
          ...schema,
          summary: 'One segment',
          params: IdParams,
          response: { 200: SegmentSchema, ...errors },
        },
      },
      async (request) => segments.get(request.waba!.id, request.params.id),
    );
    app.put(
      '/segments/:id/',
      {
        schema: {
          ...schema,
          summary: 'Change a segment’s name and rules (broadcasts made with it keep theirs)',
          params: IdParams,
          body: SegmentRequestSchema,
          response: { 200: SegmentSchema, ...errors, 409: ErrorResponseSchema },
        },
      },
      async (request) => segments.update(request.waba!.id, request.params.id, request.body),
    );
    app.delete(
      '/segments/:id/',
      {
        schema: {
          ...schema,
          summary: 'Delete a segment (broadcasts made with it keep its rules)',
          params: IdParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await segments.remove(request.waba!.id, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
