import { finished } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import type { ImportResult, ImportRowError } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Pool } from '../../db/pool';
import { adjustContactTotal, ensureTag, recordExtraColumns } from './contacts-repo';
import { HttpError } from '../../http-error';
import {
  CONTACT_COLUMNS,
  contactLine,
  detectDelimiter,
  type ImportHeader,
  isBlankRecord,
  providedColumns,
  readHeader,
  STAGING_COLUMNS,
  validateRow,
} from './import-rows';

/**
 * Valid rows waiting to be written, in file order, as two parallel lists of strings (no object per row: a
 * chunk holds 25,000 rows, and two chunks are alive at once).
 */
interface Chunk {
  numbers: string[];
  /** Each row's values as a COPY text line (contactLine). */
  lines: string[];
}

const emptyChunk = (): Chunk => ({ numbers: [], lines: [] });

const CONCURRENT_ADD =
  'A contact with a number in this file was added while it was importing, so nothing was imported. Please import the file again.';

/** Rows per staged chunk: big enough to amortise each merge, small enough to keep two in memory. */
const CHUNK_ROWS = 25_000;
const MAX_REPORTED_ROWS = 1_000;
// Any constant: with the account id it serialises imports into one account (pg_advisory_xact_lock(int, int)).
const IMPORT_LOCK = 4_820_118;

/** The upload as @fastify/multipart hands it over: `truncated` once its size limit cut it short. */
export type UploadStream = Readable & { truncated?: boolean };

export type ImportOutcome =
  | { kind: 'done'; result: ImportResult }
  | { kind: 'rejected'; errors: ImportRowError[]; badRows: number }
  | { kind: 'empty' }
  | { kind: 'too-large' };

/**
 * One CSV import into one account, all or nothing, in one transaction on one connection.
 *
 * The upload is parsed and validated as it arrives; valid rows are written (COPY, text format) into a temp
 * staging table in chunks, and each chunk is merged into `contacts` while the next one is parsed, so Node and
 * Postgres work at the same time. The first bad row stops all writing; parsing goes on only to name every
 * bad row, and the transaction is rolled back. Memory holds at most two chunks, whatever the file's size.
 */
export class ContactImport {
  private client: PoolClient | undefined;
  private tagId: number | undefined;
  private earlyTag: string | undefined;
  private header: ImportHeader | undefined;
  private total = 0;
  private created = 0;
  private duplicates = 0;

  constructor(
    private readonly pool: Pool,
    private readonly wabaId: number,
  ) {}

  /** A tag known before the file arrives tags each chunk as it is merged; one sent after it, at commit. */
  setTag(name: string): void {
    if (!this.client) this.earlyTag = name;
  }

  async load(file: UploadStream): Promise<ImportOutcome> {
    const client = await this.begin();
    const errors: ImportRowError[] = [];
    let badRows = 0;
    let tooLarge = false;
    file.once('limit', () => (tooLarge = true));

    let row = 0;
    let chunk = emptyChunk();
    let flushing: Promise<void> = Promise.resolve();
    let flushError: unknown;
    const flush = async () => {
      await flushing;
      if (flushError) throw flushError;
      const rows = chunk;
      chunk = emptyChunk();
      flushing = this.writeChunk(client, rows).catch((error: unknown) => {
        flushError = error;
      });
    };

    const parser = await this.parserFor(file);
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        row += 1;
        if (tooLarge) continue;
        if (!this.header) {
          if (isBlankRecord(record)) continue;
          const header = readHeader(record);
          if ('errors' in header) {
            errors.push({ row, errors: header.errors });
            badRows += 1;
            break;
          }
          this.header = header.header;
          continue;
        }
        if (isBlankRecord(record)) continue;
        const checked = validateRow(record, this.header);
        if (checked.errors) {
          badRows += 1;
          if (errors.length < MAX_REPORTED_ROWS) errors.push({ row, errors: checked.errors });
          continue;
        }
        this.total += 1;
        if (badRows) continue;
        chunk.numbers.push(checked.row.number);
        chunk.lines.push(contactLine(checked.row));
        if (chunk.numbers.length >= CHUNK_ROWS) await flush();
      }
    } catch (error) {
      if (!isCsvError(error)) throw error;
      // csv-parse cannot go on after a broken quote: report it on the row where it stopped.
      badRows += 1;
      if (errors.length < MAX_REPORTED_ROWS) errors.push({ row: row + 1, errors: [csvMessage(error)] });
    } finally {
      await drain(file);
    }
    if (tooLarge || file.truncated) return { kind: 'too-large' };
    if (badRows) return { kind: 'rejected', errors, badRows };
    if (!this.header || this.total === 0) return { kind: 'empty' };
    if (chunk.numbers.length) await flush();
    await flushing;
    if (flushError) throw flushError;
    return { kind: 'done', result: this.result() };
  }

  /** Tags everything imported (when the tag came after the file), records new columns and the count; commits. */
  async commit(tag: string): Promise<ImportResult> {
    const client = this.client!;
    if (this.tagId === undefined) {
      const tagId = await ensureTag(client, this.wabaId, tag);
      await client.query(
        `insert into contact_tags (contact_id, tag_id) select id, $1 from import_ids on conflict do nothing`,
        [tagId],
      );
    }
    await recordExtraColumns(client, this.wabaId, this.header?.extras.map((extra) => extra.name) ?? []);
    await adjustContactTotal(client, this.wabaId, this.created);
    await client.query('commit');
    this.release();
    return this.result();
  }

  /** Rolls back whatever was written and returns the connection; safe to call at any point, and twice. */
  async close(): Promise<void> {
    if (!this.client) return;
    await this.client.query('rollback').catch(() => undefined);
    this.release();
  }

  private result(): ImportResult {
    return {
      created: this.created,
      updated: this.total - this.duplicates - this.created,
      total: this.total,
      duplicates_in_file: this.duplicates,
    };
  }

  private release(): void {
    this.client?.release();
    this.client = undefined;
  }

  private async begin(): Promise<PoolClient> {
    const client = await this.pool.connect();
    this.client = client;
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1, $2)', [IMPORT_LOCK, this.wabaId]);
    // Each chunk reaches contacts through its indexes, never by scanning or hashing every contact of the
    // account: the statistics of a table growing inside this transaction are stale by construction, and a
    // bad plan here turns quadratic (measured). These settings end with the transaction.
    await client.query(
      'set local enable_seqscan = off; set local enable_hashjoin = off; set local enable_mergejoin = off',
    );
    await client.query(
      `create temp table import_chunk (
         line integer, name text, whatsapp_number text, age integer, gender text, address text,
         post_code text, email text, attributes jsonb
       ) on commit drop`,
    );
    if (this.earlyTag !== undefined) this.tagId = await ensureTag(client, this.wabaId, this.earlyTag);
    else await client.query('create temp table import_ids (id bigint) on commit drop');
    return client;
  }

  /**
   * Writes one chunk. Within the chunk the last row of a number wins. The numbers the account already has
   * (including those an earlier chunk of this file wrote) are looked up first, in the unique index: new
   * contacts then go by `COPY` straight into `contacts` (as fast as the floor itself), and only rows for
   * existing contacts go through a staging table and an `INSERT … ON CONFLICT DO UPDATE … WHERE` a value
   * changed, so a re-import of the same file rewrites nothing. Every row of the file gets the tag.
   */
  private async writeChunk(client: PoolClient, chunk: Chunk): Promise<void> {
    // Each number's last row in the chunk, in file order of those last rows.
    const last = new Map<string, number>();
    chunk.numbers.forEach((number, i) => {
      last.delete(number);
      last.set(number, i);
    });
    this.duplicates += chunk.numbers.length - last.size;
    // updated_at = now() (the transaction's start) marks a contact an earlier chunk of this file wrote.
    const { rows: existing } = await client.query<{ whatsapp_number: string; repeated: boolean }>(
      `select whatsapp_number, updated_at = now() as repeated from contacts
        where waba_account_id = $1 and whatsapp_number = any($2::text[])`,
      [this.wabaId, [...last.keys()]],
    );
    const known = new Set<string>();
    for (const contact of existing) {
      known.add(contact.whatsapp_number);
      if (contact.repeated) this.duplicates += 1;
    }
    const fresh: number[] = [];
    const staged: number[] = [];
    for (const [number, i] of last) (known.has(number) ? staged : fresh).push(i);

    if (fresh.length > 0) {
      await this.copy(
        client,
        `copy contacts (waba_account_id, ${CONTACT_COLUMNS}) from stdin`,
        fresh.map((i) => `${this.wabaId}\t${chunk.lines[i]}`).join(''),
      ).catch((error: { code?: string; constraint?: string }) => {
        // Only a contact added by someone else since the lookup above: the file itself is de-duplicated.
        if (error.code === '23505' && error.constraint === 'contacts_waba_number_key') {
          throw HttpError.field(409, 'file', CONCURRENT_ADD);
        }
        throw error;
      });
      this.created += fresh.length;
      await client.query(
        `${this.tagTarget()} from contacts
          where waba_account_id = $1 and whatsapp_number = any($2::text[]) ${this.tagConflict()}`,
        [this.wabaId, fresh.map((i) => chunk.numbers[i])],
      );
    }
    if (staged.length > 0)
      await this.mergeExisting(
        client,
        staged.map((i) => chunk.lines[i]!),
      );
  }

  /** Updates the contacts that already exist from their rows (only columns the file has), and tags them. */
  private async mergeExisting(client: PoolClient, lines: string[]): Promise<void> {
    await this.copy(
      client,
      `copy import_chunk (${STAGING_COLUMNS}) from stdin`,
      // The staging table's `line` keeps the file order (the merge writes in it).
      lines.map((line, i) => `${i}\t${line}`).join(''),
    );
    const columns = providedColumns(this.header!).filter((column) => column !== 'whatsapp_number');
    const assign = columns.map((column) =>
      column === 'attributes'
        ? 'attributes = c.attributes || excluded.attributes'
        : `${column} = excluded.${column}`,
    );
    const changed = columns.map((column) =>
      column === 'attributes'
        ? 'c.attributes is distinct from c.attributes || excluded.attributes'
        : `c.${column} is distinct from excluded.${column}`,
    );
    await client.query(
      `insert into contacts as c
         (waba_account_id, name, whatsapp_number, age, gender, address, post_code, email, attributes)
       select $1, name, whatsapp_number, age, gender, address, post_code, email, coalesce(attributes, '{}')
         from import_chunk order by line
       on conflict (waba_account_id, whatsapp_number) do update
         set ${assign.join(', ')}, updated_at = now()
         where ${changed.join(' or ')}`,
      [this.wabaId],
    );
    await client.query(
      `${this.tagTarget()} from contacts
        where waba_account_id = $1 and whatsapp_number in (select whatsapp_number from import_chunk)
        ${this.tagConflict()}`,
      [this.wabaId],
    );
    await client.query('truncate import_chunk');
  }

  /** Where written contacts' ids go: their tag when it is known, else a list tagged at commit. */
  private tagTarget(): string {
    return this.tagId === undefined
      ? 'insert into import_ids (id) select id'
      : `insert into contact_tags (contact_id, tag_id) select id, ${this.tagId}`;
  }

  private tagConflict(): string {
    return this.tagId === undefined ? '' : 'on conflict do nothing';
  }

  private async copy(client: PoolClient, sql: string, text: string): Promise<void> {
    const stream = client.query(copyFrom(sql));
    await new Promise<void>((resolve, reject) => {
      stream.once('finish', resolve);
      stream.once('error', reject);
      stream.end(text);
    });
  }

  /** Waits for the header line, picks its delimiter, and feeds the upload to a parser with backpressure. */
  private async parserFor(file: UploadStream): Promise<Parser> {
    const head = await readHead(file);
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
    const write = (chunk: Buffer) => {
      if (stopped) return;
      if (!parser.write(chunk)) {
        file.pause();
        parser.once('drain', () => file.resume());
      }
    };
    if (head.length) write(head);
    if (file.readableEnded) parser.end();
    else {
      file.on('data', write);
      file.once('end', () => {
        if (!stopped) parser.end();
      });
      file.once('error', (error) => parser.destroy(error));
      file.resume();
    }
    return parser;
  }
}

/** The upload's first bytes, up to and including its first line break (or 64 KiB). */
function readHead(file: UploadStream): Promise<Buffer> {
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
async function drain(file: UploadStream): Promise<void> {
  if (file.readableEnded || file.destroyed) return;
  file.removeAllListeners('data');
  file.on('data', () => undefined);
  file.resume();
  await finished(file).catch(() => undefined);
}

function isCsvError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('CSV_');
}

function csvMessage(error: Error & { code: string }): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return 'A quoted value is never closed (a " is missing)';
  if (
    error.code === 'CSV_INVALID_CLOSING_QUOTE' ||
    error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE'
  ) {
    return 'A quoted value is followed by other text before the next delimiter';
  }
  if (error.code === 'CSV_MAX_RECORD_SIZE') return 'The row is longer than 1 MiB';
  return 'The row is not valid CSV';
}
