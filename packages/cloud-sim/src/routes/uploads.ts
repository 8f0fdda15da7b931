import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, authenticateOAuth } from '../auth';
import type { SandboxContext } from '../context';
import { invalidParameter, missingParameter, unsupportedRequest } from '../errors';
import { requestParams, stringParam } from '../request-params';
import { CONTENT_HEAD_BYTES, contentMatches, uploadContentMismatch } from '../media/content-check';
import { MAX_UPLOAD_BYTES, UPLOAD_FILE_TYPES } from '../uploads/upload-store';
import type { UploadSession } from '../uploads/upload-store';

interface IdParams {
  Params: { id: string };
}

/** Meta's upload ids read "upload:<opaque>?sig=<sig>", so the signature usually arrives as a query value. */
function sessionFor(
  ctx: SandboxContext,
  request: FastifyRequest,
  rawId: string,
  method: string,
): UploadSession {
  const token = authenticateOAuth(request, ctx.state);
  const [id = rawId, inlineSig] = rawId.split('?sig=');
  const query = request.query as Record<string, unknown>;
  const sig = inlineSig ?? (typeof query.sig === 'string' ? query.sig : undefined);
  const session = ctx.state.uploads.find(id);
  if (!session || session.appId !== token.appId || sig !== session.sig)
    throw unsupportedRequest(method, rawId);
  return session;
}

const fullId = (session: UploadSession) => `${session.id}?sig=${session.sig}`;

/** `GET /upload:<id>`: how many bytes arrived, so an interrupted upload can resume there. */
export function uploadStatus(ctx: SandboxContext, request: FastifyRequest, rawId: string) {
  const session = sessionFor(ctx, request, rawId, 'GET');
  return { id: fullId(session), file_offset: session.offset };
}

/**
 * `POST /upload:<id>` with `file_offset` and the raw bytes. A finished file answers Meta's `{h}`; a
 * chunk that leaves bytes missing answers `{id, file_offset}` (the sandbox's choice: Meta is silent).
 */
export async function appendUpload(ctx: SandboxContext, request: FastifyRequest, rawId: string) {
  const session = sessionFor(ctx, request, rawId, 'POST');
  const header = request.headers.file_offset;
  const offsetText = Array.isArray(header) ? header[0] : header;
  if (offsetText === undefined) throw missingParameter('file_offset');
  if (!/^\d+$/.test(offsetText)) throw invalidParameter('file_offset must be a whole number of bytes');
  const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  refuseForeignContent(session, Number(offsetText), bytes);
  const appended = ctx.state.uploads.append(session, Number(offsetText), bytes);
  if (!appended.ok) {
    const details = {
      'offset-mismatch': `file_offset must be ${session.offset}, the number of bytes received so far`,
      'too-many-bytes': `the bytes sent go past file_length (${session.fileLength})`,
      empty: 'the request carries no file bytes',
    }[appended.problem];
    throw invalidParameter(details);
  }
  const result =
    session.handle === null ? { id: fullId(session), file_offset: session.offset } : { h: session.handle };
  await ctx.log.append({
    method: 'POST',
    path: `/${session.id}`,
    body: { file_offset: Number(offsetText), bytes: bytes.length },
    result,
  });
  return result;
}

/**
 * Refuses the chunk that completes the file's first bytes when they are not the session's `file_type` (an
 * SVG announced as image/png): nothing of it is kept, so the upload never finishes with a handle.
 */
function refuseForeignContent(session: UploadSession, offset: number, bytes: Buffer): void {
  if (offset !== session.offset || session.offset >= CONTENT_HEAD_BYTES) return;
  if (session.offset + bytes.length < Math.min(CONTENT_HEAD_BYTES, session.fileLength)) return;
  const head = Buffer.concat([...session.chunks, bytes.subarray(0, CONTENT_HEAD_BYTES)]);
  if (!contentMatches(session.fileType, head)) throw uploadContentMismatch(session.fileType);
}

export function registerUploadRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<IdParams>('/:id/uploads', async (request) => {
    const token = authenticate(request, ctx.state);
    const appId = request.params.id;
    if (appId !== ctx.appId || token.appId !== appId) throw unsupportedRequest('POST', appId);
    const params = requestParams(request);
    const fileName = stringParam(params, 'file_name');
    const fileLengthText = stringParam(params, 'file_length');
    const fileType = stringParam(params, 'file_type');
    if (!fileName) throw missingParameter('file_name');
    if (!fileLengthText) throw missingParameter('file_length');
    if (!fileType) throw missingParameter('file_type');
    if (!/^\d+$/.test(fileLengthText) || Number(fileLengthText) < 1) {
      throw invalidParameter('file_length must be a positive whole number of bytes');
    }
    const fileLength = Number(fileLengthText);
    if (fileLength > MAX_UPLOAD_BYTES) {
      throw invalidParameter(`file_length must be at most ${MAX_UPLOAD_BYTES} bytes`);
    }
    if (!UPLOAD_FILE_TYPES.includes(fileType)) {
      throw invalidParameter(`file_type must be one of ${UPLOAD_FILE_TYPES.join(', ')}`);
    }
    const session = ctx.state.uploads.create({ appId, fileName, fileLength, fileType });
    const result = { id: fullId(session) };
    await ctx.log.append({ method: 'POST', path: `/${appId}/uploads`, body: params, result });
    return result;
  });
}
