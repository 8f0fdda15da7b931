import type { ImportResult } from '@herald/contracts';
import type { SessionApi } from '../../lib/base-query';
import { uploadWithProgress } from '../../lib/upload-with-progress';
import { importFailure } from './import-failure';
import type { ImportFailure } from './import-failure';

const IMPORT_PATH = '/recipient/import/';

type ImportOutcome = { ok: true; result: ImportResult } | { ok: false; failure: ImportFailure };

/**
 * POST /recipient/import/ with the file and the tag as multipart. 200 and 201 are success; any
 * other answer, or none, becomes the lines shown to the user.
 */
export async function importContacts(options: {
  file: File;
  tag: string;
  /** ISO country for numbers written without their country code ('DE'); sent before the file. */
  defaultCountry?: string;
  session: SessionApi;
  onProgress: (fraction: number) => void;
}): Promise<ImportOutcome> {
  const body = new FormData();
  body.append('tag', options.tag);
  if (options.defaultCountry) body.append('default_country', options.defaultCountry);
  // The file last: a streaming server then has the tag before it reads the file.
  body.append('file', options.file, options.file.name);
  try {
    const answer = await uploadWithProgress({
      url: IMPORT_PATH,
      body,
      session: options.session,
      onProgress: options.onProgress,
    });
    if (answer.status === 200 || answer.status === 201) {
      return { ok: true, result: answer.data as ImportResult };
    }
    return { ok: false, failure: importFailure(answer.data) };
  } catch (error) {
    console.error('Contact import failed', error);
    return { ok: false, failure: importFailure(null) };
  }
}
