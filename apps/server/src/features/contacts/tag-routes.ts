import {
  BulkTagAddRequestSchema,
  BulkTagRemoveRequestSchema,
  BulkTagResultSchema,
  ErrorResponseSchema,
  TagIdParamsSchema,
  TagRenameRequestSchema,
  TagSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TagsService } from './tags-service';

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

/** Tag management where contacts are. Registered inside the business (X-WABA-ID) scope. */
export function tagRoutes(tags: TagsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/recipient/tags/add/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Tag the selected contacts (the tag is created when missing); all of them or none',
          body: BulkTagAddRequestSchema,
          response: { 200: BulkTagResultSchema, ...errors },
        },
      },
      async (request) =>
        tags.addToContacts(request.waba!.id, request.body.contact_ids, request.body.tag_name),
    );

    app.post(
      '/recipient/tags/remove/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Take a tag off the selected contacts; all of them or none',
          body: BulkTagRemoveRequestSchema,
          response: { 200: BulkTagResultSchema, ...errors },
        },
      },
      async (request) =>
        tags.removeFromContacts(request.waba!.id, request.body.contact_ids, request.body.tag_id),
    );

    app.put(
      '/recipient/tags/:id/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Rename a tag; answers it with the number of contacts carrying it',
          params: TagIdParamsSchema,
          body: TagRenameRequestSchema,
          response: { 200: TagSchema, ...errors, 409: ErrorResponseSchema },
        },
      },
      async (request) => tags.rename(request.waba!.id, request.params.id, request.body.name),
    );

    app.delete(
      '/recipient/tags/:id/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Delete a tag; answers it with the number of contacts it was taken off',
          params: TagIdParamsSchema,
          response: { 200: TagSchema, ...errors },
        },
      },
      async (request) => tags.remove(request.waba!.id, request.params.id),
    );
  };
}
