// POST /recipient/import/'s work: its multipart parts read in order, fed to one ContactImport, and its answer.
import type { Multipart } from '@fastify/multipart';
import { findUnsafeInput, IMPORT_MESSAGES } from '@herald/contracts';
import type { ImportResult, ImportRowError } from '@herald/contracts';
import { HttpError } from '../../http-error';
import { malformedMultipartAsClientError } from '../../plugins/malformed-multipart';
import type { ContactImport, ImportOutcome } from './contact-import';

/** What the route answers when the request itself was well formed: the result, or every bad row. */
export type ImportAnswer =
  | { status: 201; body: ImportResult }
  | { status: 400; body: { detail: string; message: { errors: ImportRowError[] } } };

/** The fields and file of one request, as far as they were read. */
interface Received {
  tag: string | undefined;
  sawTag: boolean;
  sawFile: boolean;
  problem: HttpError | undefined;
  outcome: ImportOutcome | undefined;
}

/**
 * Runs one import from the request's parts (tag and default_country, then the file; the tag may also come
 * after it) and commits it, or answers why not; a problem with the request itself is thrown as an HttpError.
 * The session is closed (rolled back unless committed) whatever happens. `limitText` names the size limit.
 */
export async function importUpload(
  session: ContactImport,
  parts: AsyncIterable<Multipart>,
  limitText: string,
): Promise<ImportAnswer> {
  const tooLarge = () => HttpError.field(413, 'file', `The file is larger than the ${limitText} limit`);
  try {
    const { tag, sawFile, problem, outcome } = await readParts(session, parts, tooLarge);
    if (problem) throw problem;
    if (!sawFile || !outcome) throw HttpError.field(400, 'file', IMPORT_MESSAGES.noFile);
    if (tag === undefined || tag.length === 0) throw HttpError.field(400, 'tag', IMPORT_MESSAGES.noTag);
    if (tag.length > 100) throw HttpError.field(400, 'tag', 'The tag must be at most 100 characters');
    if (outcome.kind === 'empty') {
      throw HttpError.field(
        400,
        'file',
        'The file has no contacts: it needs a header row and at least one contact row',
      );
    }
    if (outcome.kind === 'rejected') {
      const shown =
        outcome.errors.length < outcome.badRows ? ` (the first ${outcome.errors.length} are listed)` : '';
      return {
        status: 400,
        body: {
          detail: `${outcome.badRows} ${outcome.badRows === 1 ? 'row is' : 'rows are'} invalid${shown}; nothing was imported`,
          message: { errors: outcome.errors },
        },
      };
    }
    if (outcome.kind !== 'done') throw tooLarge();
    return { status: 201, body: await session.commit(tag) };
  } finally {
    await session.close();
  }
}

/** Reads every part: fields set the session up, the first acceptable file is loaded into it. */
async function readParts(
  session: ContactImport,
  parts: AsyncIterable<Multipart>,
  tooLarge: () => HttpError,
): Promise<Received> {
  const received: Received = {
    tag: undefined,
    sawTag: false,
    sawFile: false,
    problem: undefined,
    outcome: undefined,
  };
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        readField(session, part.fieldname, part.value, received);
        continue;
      }
      if (part.fieldname !== 'file' || received.sawFile || received.problem) {
        part.file.resume();
        continue;
      }
      received.sawFile = true;
      const unsafeName = findUnsafeInput(part.filename, 'file.filename');
      if (unsafeName) received.problem = HttpError.field(400, unsafeName.field, unsafeName.message);
      else if (!part.filename.toLowerCase().endsWith('.csv'))
        received.problem = HttpError.field(400, 'file', IMPORT_MESSAGES.notCsv);
      // A blank tag sent before the file: no need to read the file into the database first.
      else if (received.sawTag && !received.tag)
        received.problem = HttpError.field(400, 'tag', IMPORT_MESSAGES.noTag);
      if (received.problem) {
        part.file.resume();
        continue;
      }
      received.outcome = await session.load(part.file);
      if (received.outcome.kind === 'too-large') throw tooLarge();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw malformedMultipartAsClientError(error);
  }
  return received;
}

/** default_country and the first tag field; others are ignored. */
function readField(session: ContactImport, name: string, value: unknown, received: Received): void {
  if (typeof value !== 'string') return;
  if (name === 'default_country') {
    const refused = session.setDefaultCountry(value);
    if (refused) received.problem ??= HttpError.field(400, 'default_country', refused);
    return;
  }
  if (name !== 'tag' || received.sawTag) return;
  received.sawTag = true;
  const unsafe = findUnsafeInput(value, 'tag');
  if (unsafe) received.problem ??= HttpError.field(400, unsafe.field, unsafe.message);
  received.tag = value.trim() || undefined;
  if (received.tag && !unsafe) session.setTag(received.tag);
}
