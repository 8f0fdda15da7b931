import multipart from '@fastify/multipart';
import {
  ContactColumnsResponseSchema,
  ContactCreateRequestSchema,
  ContactFilterQuerySchema,
  ContactListResponseSchema,
  ContactSchema,
  ContactUpdateRequestSchema,
  ErrorResponseSchema,
  IMPORT_MESSAGES,
  ImportResultSchema,
  ImportRowErrorsResponseSchema,
  TagListResponseSchema,
} from '@herald/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../http-error';
import { pageUrl } from '../../page-url';
import type { ContactsService } from './contacts-service';
import { tagRoutes } from './tag-routes';

const DEFAULT_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };
const IdParamsSchema = z.object({
  id: z.coerce
    .number({ message: 'must be a contact id' })
    .int('must be a contact id')
    .positive('must be a contact id'),
});

/** Recipient calls, plus DELETE /recipient/{id}/. Registered inside the business (X-WABA-ID) scope. */
export function contactsRoutes(
  contacts: ContactsService,
  options: { importMaxBytes?: number } = {},
): FastifyPluginAsyncZod {
  const importMaxBytes = options.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES;
  const MB = 1024 * 1024;
  const limitText =
    importMaxBytes >= MB ? `${Math.round(importMaxBytes / MB)} MB` : `${importMaxBytes} bytes`;
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: importMaxBytes, files: 1, fields: 10, fieldSize: 10_000, parts: 20 },
    });
    await app.register(tagRoutes(contacts.tagging));

    app.get(
      '/recipient/create/',
      {
        schema: {
          tags: ['contacts'],
          summary:
            'One page of contacts, newest first; search matches name, number and e-mail; tag_ids (any of ' +
            'them) and opted_out narrow it',
          querystring: ContactFilterQuerySchema,
          response: { 200: ContactListResponseSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const page = await contacts.list(request.waba!.id, query);
        // The links keep every filter, so following them pages through the same list.
        const filters = {
          search: query.search?.trim() || undefined,
          tag_ids: query.tag_ids?.join(','),
          opted_out: query.opted_out === undefined ? undefined : String(query.opted_out),
        };
        return {
          count: page.count,
          next: page.hasNext
            ? pageUrl(request, { page: query.page + 1, page_size: query.page_size, ...filters })
            : null,
          previous:
            query.page > 1
              ? pageUrl(request, { page: query.page - 1, page_size: query.page_size, ...filters })
              : null,
          results: page.results,
        };
      },
    );

    app.post(
      '/recipient/create/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Add a contact; the number is stored in E.164',
          body: ContactCreateRequestSchema,
          response: { 201: ContactSchema, ...errors, 409: ErrorResponseSchema },
        },
      },
      async (request, reply) => reply.code(201).send(await contacts.create(request.waba!.id, request.body)),
    );

    app.put(
      '/meta/customer/',
      {
        schema: {
          tags: ['contacts'],
          summary: "Change a contact's name and number",
          body: ContactUpdateRequestSchema,
          response: { 200: ContactSchema, ...errors, 409: ErrorResponseSchema },
        },
      },
      async (request) => contacts.update(request.waba!.id, request.body),
    );

    app.delete(
      '/recipient/:id/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Delete a contact',
          params: IdParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await contacts.remove(request.waba!.id, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/recipient/tags/',
      {
        schema: {
          tags: ['contacts'],
          summary: "The account's tags with how many contacts carry each",
          response: { 200: TagListResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => contacts.tags(request.waba!.id),
    );

    app.get(
      '/recipient/cols',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Column names usable as template variables: the fixed ones, then every imported extra',
          response: { 200: ContactColumnsResponseSchema, 403: ErrorResponseSchema },
        },
      },
      async (request) => contacts.columns(request.waba!.id),
    );

    app.post(
      '/recipient/import/',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Import a CSV (multipart: tag and default_country, then file): all rows or none',
          description:
            'Columns name, number, age, gender, address, post_code, email; others become attributes. ' +
            'Rows are numbered as a spreadsheet shows them: the header is row 1, the first contact row 2. ' +
            'default_country (ISO code, e.g. DE) reads numbers written without their country code. ' +
            'The file may be UTF-8, UTF-16 with a byte-order mark, or Windows-1252.',
          consumes: ['multipart/form-data'],
          response: {
            201: ImportResultSchema,
            400: z.union([ErrorResponseSchema, ImportRowErrorsResponseSchema]),
            403: ErrorResponseSchema,
            413: ErrorResponseSchema,
          },
        },
      },
      async (request, reply) => {
        if (!request.isMultipart()) throw HttpError.field(400, 'file', IMPORT_MESSAGES.noFile);
        const answer = await contacts.importUpload(request.waba!.id, request.parts(), limitText);
        return reply.code(answer.status).send(answer.body);
      },
    );
  };
}
