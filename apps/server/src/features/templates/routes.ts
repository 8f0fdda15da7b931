import multipart from '@fastify/multipart';
import {
  ErrorResponseSchema,
  findUnsafeInput,
  MEDIA_RULES,
  MessageResponseSchema,
  TemplateDeleteRequestSchema,
  TemplateDetailSchema,
  TemplateListItemSchema,
  TemplateListQuerySchema,
  TemplateListResponseSchema,
} from '@herald/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../http-error';
import { malformedMultipartAsClientError } from '../../plugins/malformed-multipart';
import { pageUrl } from '../../page-url';
import { mediaContentProblem } from '../../security/media-content';
import type { TemplatesService, UploadedFile } from './templates-service';

// The largest header Meta takes (a document); each format's own cap is checked after reading.
const MAX_MEDIA_BYTES = Math.max(...Object.values(MEDIA_RULES).map((rule) => rule.maxBytes));

const IdParamsSchema = z.object({
  id: z.coerce
    .number({ message: 'must be a template id' })
    .int('must be a template id')
    .positive('must be a template id'),
});
const errors = {
  400: ErrorResponseSchema,
  403: ErrorResponseSchema,
  404: ErrorResponseSchema,
  413: ErrorResponseSchema,
  502: ErrorResponseSchema,
};

/** The input guard's check, for the multipart parts it cannot see. */
function refuseUnsafe(value: unknown, field: string): void {
  const problem = findUnsafeInput(value, field);
  if (problem) throw HttpError.field(400, problem.field, problem.message);
}

/**
 * Reads `template_data` (JSON text) and the optional `header_file` from a multipart body, or the payload
 * itself from a JSON body (for API clients). A file over the largest cap is refused with 413 as soon as the
 * limit is hit, without reading the rest.
 */
async function readTemplateRequest(
  request: FastifyRequest,
): Promise<{ payload: unknown; file: UploadedFile | null }> {
  if (!request.isMultipart()) return { payload: request.body, file: null };
  let payloadText: string | undefined;
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fieldSize: 1024 * 1024 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'header_file') {
          part.file.resume();
          continue;
        }
        const bytes = await part.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE') {
            throw HttpError.field(
              413,
              'header_file',
              'The header file is larger than Meta accepts (100 MB at most)',
            );
          }
          throw error;
        });
        refuseUnsafe(part.filename, 'header_file.filename');
        refuseUnsafe(part.mimetype, 'header_file.content-type');
        file = { name: part.filename, type: part.mimetype, bytes };
        // Bytes that are not what the type and name say (an SVG called x.png) are never stored or served.
        const contentProblem = mediaContentProblem(file);
        if (contentProblem) throw HttpError.field(400, 'header_file', contentProblem);
      } else if (part.fieldname === 'template_data') {
        payloadText = String(part.value);
      }
    }
  } catch (error) {
    throw malformedMultipartAsClientError(error);
  }
  if (payloadText === undefined) throw HttpError.field(400, 'template_data', 'template_data is required');
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    throw HttpError.field(400, 'template_data', 'template_data is not valid JSON');
  }
  // A JSON body went through the input guard; this one was only text until now.
  refuseUnsafe(payload, 'template_data');
  return { payload, file };
}

/** Template calls, plus Submit for drafts and the owner-only media of previews. */
export function templatesRoutes(templates: TemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { throwFileSizeLimit: true });

    app.get(
      '/meta/templates/',
      {
        schema: {
          tags: ['templates'],
          summary: 'The selected account’s templates, paged, searchable and sorted',
          querystring: TemplateListQuerySchema,
          response: { 200: TemplateListResponseSchema, ...errors },
        },
      },
      async (request) =>
        templates.list(request.waba!, request.query, (page) =>
          pageUrl(request, {
            page,
            page_size: request.query.page_size,
            search: request.query.search,
            sort: request.query.sort,
          }),
        ),
    );

    app.get(
      '/meta/templates/:id/',
      {
        schema: {
          tags: ['templates'],
          summary: 'One template, as the edit screen reads it',
          params: IdParamsSchema,
          response: { 200: TemplateDetailSchema, ...errors },
        },
      },
      async (request) => templates.detail(request.waba!, request.params.id),
    );

    app.post(
      '/meta/templates/',
      {
        schema: {
          tags: ['templates'],
          summary:
            'Create a template (multipart: template_data JSON, optional header_file) and submit it to Meta; kept a DRAFT when the account requires approval, and given the account’s default language when it names none',
          consumes: ['multipart/form-data', 'application/json'],
          response: { 201: TemplateListItemSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { payload, file } = await readTemplateRequest(request);
        return reply.code(201).send(await templates.create(request.waba!, payload, file));
      },
    );

    app.put(
      '/meta/templates/:id/',
      {
        schema: {
          tags: ['templates'],
          summary:
            'Edit a template here and at Meta (Meta allows edits of APPROVED, REJECTED or PAUSED ones; 409 when Meta has locked it)',
          params: IdParamsSchema,
          consumes: ['multipart/form-data', 'application/json'],
          response: { 200: TemplateListItemSchema, 409: ErrorResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { payload, file } = await readTemplateRequest(request);
        return templates.update(request.waba!, request.params.id, payload, file);
      },
    );

    app.post(
      '/meta/templates/:id/submit/',
      {
        schema: {
          tags: ['templates'],
          summary: 'Submit a draft template to Meta for review',
          params: IdParamsSchema,
          response: { 200: TemplateListItemSchema, 409: ErrorResponseSchema, ...errors },
        },
      },
      async (request) => templates.submit(request.waba!, request.params.id),
    );

    app.delete(
      '/meta/templates/',
      {
        schema: {
          tags: ['templates'],
          summary: 'Delete a template at Meta and here',
          body: TemplateDeleteRequestSchema,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => {
        await templates.remove(request.waba!, request.body.template_id, request.body.template_name);
        return { message: 'Template deleted' };
      },
    );

    app.get(
      '/meta/templates/media/:id/',
      {
        schema: {
          tags: ['templates'],
          summary: 'A template header’s media file (owner only)',
          params: IdParamsSchema,
        },
      },
      async (request, reply) => {
        const media = await templates.media(request.waba!, request.params.id);
        return reply
          .type(media.mime_type)
          .header('cache-control', 'private, max-age=300')
          .header('content-disposition', `inline; filename="${media.file_name.replace(/["\\\r\n]/g, '_')}"`)
          .send(media.content);
      },
    );
  };
}
