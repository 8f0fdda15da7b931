// An upload fed to csv-parse as it streams in: decoded to UTF-8, with the delimiter its header line uses.
import { parse, type Parser } from 'csv-parse';
import { CsvDecoder } from './csv-decoder';
import { readHead, type UploadStream } from './csv-upload';
import { detectDelimiter } from './import-rows';

/**
 * Waits for the header line, picks its delimiter, and feeds the upload to a parser with backpressure,
 * decoded from the encoding the file was saved in (CsvDecoder).
 */
export async function parseUpload(file: UploadStream): Promise<Parser> {
  const decoder = new CsvDecoder();
  const head = decoder.write(await readHead(file));
  const parser = parse({
    bom: true,
    delimiter: detectDelimiter(head.toString('utf8')),
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: 1 << 20,
  });
  let stopped = false;
  parser.once('error', () => {
    stopped = true;
  });
  parser.once('close', () => {
    stopped = true;
  });
  const write = (bytes: Buffer) => {
    if (stopped || bytes.length === 0) return;
    if (!parser.write(bytes)) {
      file.pause();
      parser.once('drain', () => file.resume());
    }
  };
  if (head.length) write(head);
  if (file.readableEnded) {
    write(decoder.end());
    parser.end();
  } else {
    file.on('data', (chunk: Buffer) => write(decoder.write(chunk)));
    file.once('end', () => {
      write(decoder.end());
      if (!stopped) parser.end();
    });
    file.once('error', (error) => parser.destroy(error));
    file.resume();
  }
  return parser;
}
