// Reading a CSV upload as it streams in: its first line, the rest discarded, and csv-parse's errors in words.
import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { CsvError } from 'csv-parse';

/** The upload as @fastify/multipart hands it over: `truncated` once its size limit cut it short. */
export type UploadStream = Readable & { truncated?: boolean };

/** The upload's first bytes, up to and including its first line break (or 64 KiB). */
export function readHead(file: UploadStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      file.off('data', onData);
      file.off('end', done);
      file.off('error', reject);
      file.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(10) || size >= 65_536) done();
    };
    file.on('data', onData);
    file.once('end', done);
    file.once('error', reject);
  });
}

/** Reads the rest of the upload into nothing, so the multipart parser can go on to the next part. */
export async function drain(file: UploadStream): Promise<void> {
  if (file.readableEnded || file.destroyed) return;
  file.removeAllListeners('data');
  file.on('data', () => undefined);
  file.resume();
  await finished(file).catch(() => undefined);
}

// Not every code starts with CSV_ (INVALID_OPENING_QUOTE does not): the class tells.
export function isCsvError(error: unknown): error is CsvError {
  return error instanceof CsvError;
}

export function csvMessage(error: CsvError): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return 'A quoted value is never closed (a " is missing)';
  if (error.code === 'INVALID_OPENING_QUOTE') return 'A " appears inside a value that is not quoted';
  if (
    error.code === 'CSV_INVALID_CLOSING_QUOTE' ||
    error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE'
  ) {
    return 'A quoted value is followed by other text before the next delimiter';
  }
  if (error.code === 'CSV_MAX_RECORD_SIZE') return 'The row is longer than 1 MiB';
  return 'The row is not valid CSV';
}
