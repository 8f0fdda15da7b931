import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, grantedPhoneNumber } from '../auth';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter, unsupportedRequest } from '../errors';
import { CONTENT_HEAD_BYTES, contentMatches, mediaUploadError } from '../media/content-check';
import { SEND_MEDIA_TYPES, type StoredMedia } from '../media/media-store';
import { stringParam } from '../request-params';
import type { AccessToken } from '../state';

interface IdParams {
  Params: { id: string };
  Querystring: Record<string, string | undefined>;
}

/**
 * The media a token may see under this id: uploaded to a number of one of its WABAs and, when the call names
 * `phone_number_id` (Meta's optional check), to that number. Anything else is not there, as for other nodes.
 */
export function grantedMedia(
  ctx: SandboxContext,
  token: AccessToken,
  id: string,
  phoneNumberId: string | undefined,
): StoredMedia | undefined {
  const media = ctx.state.media.find(id);
  const phone = media && ctx.state.findPhoneNumber(media.phoneNumberId);
  if (!media || !phone || !token.wabaIds.includes(phone.wabaId)) return undefined;
  return phoneNumberId === undefined || phoneNumberId === media.phoneNumberId ? media : undefined;
}

/**
 * `GET /{media-id}` as Meta answers it. Its `url` is the sandbox's stand-in for Meta's short-lived lookaside
 * link: `GET` it with the same token and it answers the bytes (see registerMediaRoutes).
 */
export function mediaNode(ctx: SandboxContext, request: FastifyRequest, media: StoredMedia) {
  const base = (ctx.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  return {
    messaging_product: 'whatsapp' as const,
    url: `${base}/whatsapp_business/attachments/?mid=${encodeURIComponent(media.id)}`,
    mime_type: media.mimeType,
    sha256: media.sha256 ?? '',
    file_size: media.bytes,
    id: media.id,
  };
}

/**
 * `POST /{phone-number-id}/media`, multipart `file`, `type` and `messaging_product=whatsapp` → `{id}`: media
 * a message can then name by id. Types and sizes as the Cloud API's send limits; bytes that are not the declared
 * type answer 131053, as Meta's do.
 */
export function registerMediaRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/media', async (request) => {
    const token = authenticate(request, ctx.state);
    const phone = grantedPhoneNumber(token, ctx.state, request.params.id, 'POST');
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.startsWith('multipart/form-data') || !Buffer.isBuffer(request.body)) {
      throw invalidParameter('The upload must be multipart/form-data with file, type and messaging_product');
    }
    // The body arrives raw (the sandbox's '*' parser); the Fetch API's multipart parser reads it.
    const form = await new Response(new Uint8Array(request.body), {
      headers: { 'content-type': contentType },
    })
      .formData()
      .catch(() => {
        throw invalidParameter('The multipart body could not be read');
      });
    // Graph reads parameters from the query string as well as the body.
    const product = form.get('messaging_product') ?? stringParam(request.query, 'messaging_product');
    if (product !== 'whatsapp') throw missingParameter('messaging_product');
    const file = form.get('file');
    if (!(file instanceof Blob)) throw missingParameter('file');
    const type = String(form.get('type') ?? file.type ?? '');
    const limit = SEND_MEDIA_TYPES[type];
    if (limit === undefined) {
      throw invalidParameter(`type must be one of ${Object.keys(SEND_MEDIA_TYPES).join(', ')}`);
    }
    if (file.size === 0) throw invalidParameter('file is empty');
    if (file.size > limit)
      throw invalidParameter(`file is larger than ${limit} bytes, the limit for ${type}`);
    const head = new Uint8Array(await file.slice(0, CONTENT_HEAD_BYTES).arrayBuffer());
    if (!contentMatches(type, head)) throw mediaUploadError(type);
    const id = ctx.state.newId();
    const content = Buffer.from(await file.arrayBuffer());
    const sha256 = createHash('sha256').update(new Uint8Array(content)).digest('hex');
    ctx.state.media.add(
      { id, phoneNumberId: phone.id, mimeType: type, bytes: file.size, uploadedAt: Date.now(), sha256 },
      content,
    );
    const result = { id };
    await ctx.log.append({
      method: 'POST',
      path: `/${phone.id}/media`,
      body: { type, bytes: file.size },
      result,
    });
    return result;
  });

  // The media URL `GET /{media-id}` gives: the bytes, to a token that may see the media (Meta's lookaside link
  // wants the same Bearer token). Without one 401; another business's token, or bytes no longer kept, 404.
  app.get<{ Querystring: { mid?: string } }>('/whatsapp_business/attachments/', async (request, reply) => {
    const token = authenticate(request, ctx.state);
    const media = grantedMedia(ctx, token, request.query.mid ?? '', undefined);
    const content = media && ctx.state.media.contentOf(media.id);
    if (!media || !content) return reply.code(404).type('text/plain').send('Not Found');
    return reply.type(media.mimeType).header('content-length', content.length).send(content);
  });

  // `DELETE /{media-id}` (optionally `?phone_number_id=`): the id can no longer be sent.
  app.delete<IdParams>('/:id', async (request) => {
    const { id } = request.params;
    const token = authenticate(request, ctx.state);
    const media = grantedMedia(ctx, token, id, request.query.phone_number_id);
    if (!media) throw unsupportedRequest('DELETE', id);
    ctx.state.media.delete(media.id);
    const result = { success: true as const };
    await ctx.log.append({ method: 'DELETE', path: `/${id}`, body: {}, result });
    return result;
  });
}
