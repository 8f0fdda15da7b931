import { finished } from 'node:stream/promises';
import { DefaultCountrySchema } from '@herald/contracts';
import type { ImportResult, ImportRowError, PhoneCountry } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Pool } from '../../db/pool';
import { adjustContactTotal, ensureTag, lockContactWrites, recordExtraColumns } from './contacts-repo';
import {
  CONTACT_LINE_COLUMNS,
  contactLine,
  type ImportHeader,
  isBlankRecord,
  providedColumns,
  readHeader,
  STAGING_COLUMNS,
  validateRow,
} from './import-rows';
import { recordImportEvent } from '../dashboard/index';
import { CopyBuffer } from './copy-buffer';
import { NumberLineReader, numberKey, NumberSet } from './number-set';
import { csvMessage, drain, isCsvError, type UploadStream } from './csv-upload';
import { parseUpload } from './upload-parser';

/** Rows per chunk: big enough to amortise each write, small enough to keep two in memory. */
const CHUNK_ROWS = 25_000;
const MAX_REPORTED_ROWS = 1_000;

// The marks of a number in the import's NumberSet.
const STORED = 1; // the account had it before the import
const STORED_AND_IN_FILE = 2; // …and a row of this file has it
const NEW_IN_FILE = 3; // a row of this file brought it

/**
 * Rows parsed and not yet written: new contacts with their tag links, and rows for the staging table's
 * merge; `ids` are reserved from the contacts' sequence for this chunk's new contacts (`used` of them taken).
 */
interface Chunk {
  fresh: CopyBuffer;
  links: CopyBuffer;
  staged: CopyBuffer;
  ids: Float64Array;
  used: number;
}

const newChunk = (): Chunk => ({
  fresh: new CopyBuffer(),
  links: new CopyBuffer(),
  staged: new CopyBuffer(),
  ids: new Float64Array(0),
  used: 0,
});

export type ImportOutcome =
  | { kind: 'done'; result: ImportResult }
  | { kind: 'rejected'; errors: ImportRowError[]; badRows: number }
  | { kind: 'empty' }
  | { kind: 'too-large' };

/**
 * One CSV import into one account, all or nothing, in one transaction on one connection.
 *
 * The upload is parsed and validated as it arrives, and written in chunks while the next chunk is parsed, so
 * Node and Postgres work at the same time. The numbers the account already has are read into memory first
 * (a NumberSet), so each row is known to be new or not without asking Postgres: new contacts — all of them
 * on a first import — go by `COPY` straight into `contacts` and `contact_tags`, with ids reserved from the
 * sequence; rows for stored numbers, and repeats within the file, go through a staging table and one merge
 * per chunk. Contact writes elsewhere wait for an import into their account (CONTACT_WRITE_LOCK), so the
 * numbers read first stay true. The first bad row stops all writing; parsing goes on only to name every bad
 * row, and the transaction is rolled back. Memory holds at most two chunks, whatever the file's size.
 */
export class ContactImport {
  private client: PoolClient | undefined;
  private tagId: number | undefined;
  private earlyTag: string | undefined;
  private defaultCountry: PhoneCountry | undefined;
  private header: ImportHeader | undefined;
  private numbers = new NumberSet();
  private idSequence = '';
  private total = 0;
  private created = 0;
  private duplicates = 0;

  constructor(
    private readonly pool: Pool,
    private readonly wabaId: number,
  ) {}

  /** A tag known before the file arrives tags each chunk as it is written; one sent after it, at commit. */
  setTag(name: string): void {
    if (!this.client) this.earlyTag = name;
  }

  /**
   * The country a number without one is read in ('0151 12340016' with DE). Rows are checked as they arrive,
   * so it must come before the file; answers what is wrong with it, if anything.
   */
  setDefaultCountry(value: string): string | null {
    if (this.client) return 'default_country must be sent before the file';
    const country = DefaultCountrySchema.safeParse(value);
    if (!country.success) return country.error.issues[0]!.message;
    this.defaultCountry = country.data;
    return null;
  }

  async load(file: UploadStream): Promise<ImportOutcome> {
    const client = await this.begin();
    const errors: ImportRowError[] = [];
    let badRows = 0;
    let tooLarge = false;
    file.once('limit', () => (tooLarge = true));

    let row = 0;
    // Two chunks, taking turns: one is filled while the other is written.
    let chunk = newChunk();
    let spare = newChunk();
    let writing: Promise<void> = Promise.resolve();
    let writeError: unknown;
    const flush = async (last = false) => {
      await writing;
      if (writeError) throw writeError;
      const full = chunk;
      chunk = spare;
      spare = full;
      // Asked before the write, so it answers at once.
      if (!last) chunk.ids = await this.reserveIds(client);
      chunk.used = 0;
      writing = this.writeChunk(client, full).catch((error: unknown) => {
        writeError = error;
      });
    };
    chunk.ids = await this.reserveIds(client);
    const account = `\t${this.wabaId}\t`;
    const link = this.tagId === undefined ? '\n' : `\t${this.wabaId}\t${this.tagId}\n`;

    try {
      // Inside the try: csv-parse may refuse the very first line as it is written to it.
      const parser = await parseUpload(file);
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
        const checked = validateRow(record, this.header, this.defaultCountry);
        if (checked.errors) {
          badRows += 1;
          if (errors.length < MAX_REPORTED_ROWS) errors.push({ row, errors: checked.errors });
          continue;
        }
        this.total += 1;
        if (badRows) continue;
        const key = numberKey(checked.row.number);
        const mark = this.numbers.get(key);
        if (mark === 0) {
          this.numbers.set(key, NEW_IN_FILE);
          const id = String(chunk.ids[chunk.used++]);
          chunk.fresh.appendRow(id, account, contactLine(checked.row));
          chunk.links.appendRow(id, link);
        } else {
          if (mark === STORED) this.numbers.set(key, STORED_AND_IN_FILE);
          else this.duplicates += 1;
          chunk.staged.appendRow(`${row}\t`, contactLine(checked.row));
        }
        if (chunk.fresh.rows + chunk.staged.rows >= CHUNK_ROWS) await flush();
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
    if (chunk.fresh.rows + chunk.staged.rows) await flush(true);
    await writing;
    if (writeError) throw writeError;
    return { kind: 'done', result: this.result() };
  }

  /** Tags everything imported (when the tag came after the file), records new columns and the count; commits. */
  async commit(tag: string): Promise<ImportResult> {
    const client = this.client!;
    if (this.tagId === undefined) {
      const tagId = await ensureTag(client, this.wabaId, tag);
      await client.query(
        `insert into contact_tags (waba_account_id, contact_id, tag_id) select $2, id, $1 from import_ids
         on conflict do nothing`,
        [tagId, this.wabaId],
      );
    }
    await recordExtraColumns(client, this.wabaId, this.header?.extras.map((extra) => extra.name) ?? []);
    await adjustContactTotal(client, this.wabaId, this.created);
    // The bell's and Recent Activity's "import finished", committed with the import.
    await recordImportEvent(client, this.wabaId, this.result(), tag);
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
    await lockContactWrites(client, this.wabaId, 'import');
    // Each chunk reaches contacts through its indexes, never by scanning or hashing every contact of the
    // account: the statistics of a table growing inside this transaction are stale by construction, and a
    // bad plan here turns quadratic (measured). These settings end with the transaction. The contacts'
    // audience-count triggers run under them too: audience_counts_contacts_changed() turns hash and merge
    // joins back on for itself (its join of two transition tables needs them; migration 031).
    await client.query(
      'set local enable_seqscan = off; set local enable_hashjoin = off; set local enable_mergejoin = off',
    );
    await client.query(
      `create temp table import_chunk (
         line integer, name text, whatsapp_number text, age integer, gender text, address text,
         post_code text, email text, attributes jsonb
       ) on commit drop`,
    );
    await client.query('create temp table import_before (id bigint) on commit drop');
    if (this.earlyTag !== undefined) this.tagId = await ensureTag(client, this.wabaId, this.earlyTag);
    else await client.query('create temp table import_ids (id bigint) on commit drop');
    const { rows } = await client.query<{ sequence: string }>(
      `select pg_get_serial_sequence('contacts', 'id') as sequence`,
    );
    this.idSequence = rows[0]!.sequence;
    await this.readStoredNumbers(client);
    return client;
  }

  /** Every number the account has, into `numbers` (a million in about a second, streamed). */
  private async readStoredNumbers(client: PoolClient): Promise<void> {
    const reader = new NumberLineReader(this.numbers, STORED);
    const stream = client.query(
      copyTo(
        `copy (select whatsapp_number from contacts where waba_account_id = ${Number(this.wabaId)}) to stdout`,
      ),
    );
    stream.on('data', (data: Buffer) => reader.push(data));
    await finished(stream);
  }

  /** Writes a chunk and clears it: new contacts first, so a repeat of one in the staged rows finds it. */
  private async writeChunk(client: PoolClient, chunk: Chunk): Promise<void> {
    if (chunk.fresh.rows) {
      // Copied straight into contacts and their links: no lookup, no merge, no conflict possible.
      await copyBytes(
        client,
        `copy contacts (id, waba_account_id, ${CONTACT_LINE_COLUMNS}) from stdin`,
        chunk.fresh.bytes,
      );
      await copyBytes(
        client,
        this.tagId === undefined
          ? 'copy import_ids (id) from stdin'
          : 'copy contact_tags (contact_id, waba_account_id, tag_id) from stdin',
        chunk.links.bytes,
      );
      this.created += chunk.fresh.rows;
    }
    if (chunk.staged.rows) await this.mergeStaged(client, chunk.staged);
    chunk.fresh.clear();
    chunk.links.clear();
    chunk.staged.clear();
  }

  /**
   * Ids for one chunk's new contacts, from the contacts' own sequence (so single creates never collide with
   * them); usually one unbroken run, but other accounts' inserts may take ids in between. Ids a chunk does
   * not use are left as gaps, as a rolled-back insert leaves them.
   */
  private async reserveIds(client: PoolClient): Promise<Float64Array> {
    const { rows } = await client.query<{ first: string; length: number }>(
      `select min(id)::text as first, count(*)::int as length
         from (select id, id - row_number() over (order by id) as run
                 from (select nextval($1::regclass) as id from generate_series(1, $2::int)) reserved) runs
        group by run order by min(id)`,
      [this.idSequence, CHUNK_ROWS],
    );
    const ids = new Float64Array(CHUNK_ROWS);
    let at = 0;
    for (const run of rows) {
      const first = Number(run.first);
      for (let i = 0; i < run.length; i += 1) ids[at++] = first + i;
    }
    return ids;
  }

  /**
   * Merges one staged chunk of rows whose numbers exist (or came earlier in the file): the last row of each
   * number wins within the chunk (and later chunks overwrite earlier ones, so across the file too); only the
   * columns the file has are updated, and only rows whose values change are rewritten, so a re-import of the
   * same file writes nothing but missing tags.
   */
  private async mergeStaged(client: PoolClient, staged: CopyBuffer): Promise<void> {
    await copyBytes(client, `copy import_chunk (${STAGING_COLUMNS}) from stdin`, staged.bytes);
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
    const tagTarget =
      this.tagId === undefined
        ? 'insert into import_ids (id) select id'
        : `insert into contact_tags (waba_account_id, contact_id, tag_id) select $1, id, ${this.tagId}`;
    // The ids of the chunk's numbers, looked up before the merge: the merge returns only the rows it
    // rewrites, and inside it a lookup would also walk the index entries that statement is adding.
    await client.query(
      `insert into import_before (id)
       select c.id
         from (select distinct whatsapp_number from import_chunk) s
         cross join lateral (
           select id from contacts
            where waba_account_id = $1 and whatsapp_number = s.whatsapp_number
            order by waba_account_id, whatsapp_number limit 1) c`,
      [this.wabaId],
    );
    // A stored contact deleted since the import began is inserted again (`created`).
    const { rows } = await client.query<{ created: number }>(
      `with s as (
         select distinct on (whatsapp_number) * from import_chunk order by whatsapp_number, line desc
       ),
       merged as (
         insert into contacts as c
           (waba_account_id, name, whatsapp_number, age, gender, address, post_code, email, attributes)
         select $1, name, whatsapp_number, age, gender, address, post_code, email, coalesce(attributes, '{}')
           from s order by line
         on conflict (waba_account_id, whatsapp_number) do update
           set ${assign.join(', ')}, updated_at = now()
           where ${changed.join(' or ')}
         returning c.id, c.xmax = 0 as inserted
       ),
       tagged as (
         ${tagTarget} from (select id from merged union select id from import_before) ids
         ${this.tagId === undefined ? '' : 'on conflict do nothing'}
       )
       select (select count(*) from merged where inserted)::int as created`,
      [this.wabaId],
    );
    this.created += rows[0]!.created;
    await client.query('truncate import_chunk, import_before');
  }
}

/** Sends rows in COPY's text format through one COPY … FROM STDIN. */
async function copyBytes(client: PoolClient, sql: string, bytes: Buffer): Promise<void> {
  const copy = client.query(copyFrom(sql));
  copy.end(bytes);
  await finished(copy);
}
