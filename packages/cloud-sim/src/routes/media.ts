import type { FastifyInstance } from 'fastify';
import { authenticate, grantedPhoneNumber } from '../auth';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter } from '../errors';
import { CONTENT_HEAD_BYTES, contentMatches, mediaUploadError } from '../media/content-check';
import { SEND_MEDIA_TYPES } from '../media/media-store';

interface IdParams {
  Params: { id: string };
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
    if (form.get('messaging_product') !== 'whatsapp') throw missingParameter('messaging_product');
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
    ctx.state.media.add({
      id,
      phoneNumberId: phone.id,
      mimeType: type,
      bytes: file.size,
      uploadedAt: Date.now(),
    });
    const result = { id };
    await ctx.log.append({
      method: 'POST',
      path: `/${phone.id}/media`,
      body: { type, bytes: file.size },
      result,
    });
    return result;
  });
}
