import { finished } from 'node:stream/promises';
import { DefaultCountrySchema } from '@herald/contracts';
import type { ImportResult, ImportRowError, PhoneCountry } from '@herald/contracts';
import type { PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Pool } from '../../db/pool';
import { uniqueViolation } from '../../db/transaction';
import {
  adjustContactTotal,
  ensureTag,
  lockImport,
  lockExistingTag,
  recordExtraColumns,
} from './contacts-repo';
import {
  CONTACT_LINE_COLUMNS,
  contactLine,
  type ImportHeader,
  isBlankRecord,
  readHeader,
  STAGING_COLUMNS,
  tagLines,
  validateRow,
} from './import-rows';
import { recordImportEvent } from '../dashboard/index';
import { CopyBuffer } from './copy-buffer';
import { mergeChunk } from './import-merge';
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
  /** The rows' own tags (a tags column): number and tag name, a line each. */
  rowTags: CopyBuffer;
  ids: Float64Array;
  used: number;
}

const newChunk = (): Chunk => ({
  fresh: new CopyBuffer(),
  links: new CopyBuffer(),
  staged: new CopyBuffer(),
  rowTags: new CopyBuffer(),
  ids: new Float64Array(0),
  used: 0,
});

/** For tests: called after each chunk is written, with the import's transaction open; the import waits for it. */
export interface ImportHooks {
  onChunkWritten?: () => Promise<void>;
}

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
 * per chunk. The first bad row stops all writing; parsing goes on only to name every bad row, and the
 * transaction is rolled back. Memory holds at most two chunks, whatever the file's size.
 *
 * Edits, STOPs and deletes of the account go on meanwhile (decision 072): an import waits only for another
 * import. Where they meet, rows settle it: a contact the import has merged stays locked until it commits;
 * a number some edit brought after the numbers were read makes its chunk's COPY fail on the unique key, and
 * that chunk is merged instead (ON CONFLICT); an import never writes opted_out_at, so a STOP stays.
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
    private readonly hooks: ImportHooks = {},
  ) {}

  /**
   * A tag the account has, known before the file arrives, tags each chunk as it is written; a new tag, or one
   * sent after the file, tags everything at commit.
   */
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
        if (checked.row.tags.length) chunk.rowTags.appendRow(tagLines(checked.row));
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

  /**
   * Tags everything imported (a new tag, or one sent after the file) and each contact with its own tags (a tags
   * column), records columns and the count; commits.
   */
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
    // After the file's tag: a row naming it in another case joins it rather than naming it.
    if (this.header?.tags !== undefined) await applyRowTags(client, this.wabaId);
    await recordExtraColumns(client, this.wabaId, this.header?.extras.map((extra) => extra.name) ?? []);
    // The bell's and Recent Activity's "import finished", committed with the import.
    await recordImportEvent(client, this.wabaId, this.result(), tag);
    // Last: every add and delete of the account updates this row, so it is held only for the commit.
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
    await lockImport(client, this.wabaId);
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
    await client.query(
      'create temp table import_row_tags (whatsapp_number text, tag_name text) on commit drop',
    );
    // A tag that exists tags each chunk as it is written, locked only against its delete; a new one is made
    // at commit, so no edit tagging with the same name waits for the whole import to see it.
    if (this.earlyTag !== undefined) this.tagId = await lockExistingTag(client, this.wabaId, this.earlyTag);
    if (this.tagId === undefined)
      await client.query('create temp table import_ids (id bigint) on commit drop');
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
    let merge = chunk.staged.rows > 0;
    if (chunk.fresh.rows) {
      if (await this.copyFresh(client, chunk)) this.created += chunk.fresh.rows;
      else {
        // An edit brought one of these numbers since they were read: the chunk's new rows are merged instead,
        // as line 0, so a repeat of one of them later in the chunk still wins.
        await client.query(
          `create temp table if not exists import_fresh (id bigint, waba_account_id bigint, name text,
             whatsapp_number text, age integer, gender text, address text, post_code text, email text,
             attributes jsonb) on commit drop`,
        );
        await copyBytes(
          client,
          `copy import_fresh (id, waba_account_id, ${CONTACT_LINE_COLUMNS}) from stdin`,
          chunk.fresh.bytes,
        );
        await client.query(
          `insert into import_chunk (${STAGING_COLUMNS}) select 0, ${CONTACT_LINE_COLUMNS} from import_fresh;
           truncate import_fresh`,
        );
        merge = true;
      }
    }
    if (chunk.staged.rows) {
      await copyBytes(client, `copy import_chunk (${STAGING_COLUMNS}) from stdin`, chunk.staged.bytes);
    }
    if (chunk.rowTags.rows) {
      await copyBytes(
        client,
        'copy import_row_tags (whatsapp_number, tag_name) from stdin',
        chunk.rowTags.bytes,
      );
    }
    if (merge) this.created += await mergeChunk(client, this.wabaId, this.header!, this.tagId);
    chunk.fresh.clear();
    chunk.links.clear();
    chunk.staged.clear();
    chunk.rowTags.clear();
    await this.hooks.onChunkWritten?.();
  }

  /**
   * Copies the chunk's new contacts straight into contacts, and their links: no lookup, no merge. Answers
   * false, having written nothing, when the account has one of their numbers after all (a unique violation).
   */
  private async copyFresh(client: PoolClient, chunk: Chunk): Promise<boolean> {
    await client.query('savepoint import_fresh_rows');
    try {
      await copyBytes(
        client,
        `copy contacts (id, waba_account_id, ${CONTACT_LINE_COLUMNS}) from stdin`,
        chunk.fresh.bytes,
      );
    } catch (error) {
      if (uniqueViolation(error) !== 'contacts_waba_number_key') throw error;
      await client.query('rollback to savepoint import_fresh_rows');
      return false;
    }
    await client.query('release savepoint import_fresh_rows');
    await copyBytes(
      client,
      this.tagId === undefined
        ? 'copy import_ids (id) from stdin'
        : 'copy contact_tags (contact_id, waba_account_id, tag_id) from stdin',
      chunk.links.bytes,
    );
    return true;
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
}

/**
 * Each contact's own tags, from the file's tags column: tags the account lacks are made (under one of the
 * file's spellings), then linked. Only adds: a tag a contact has and its row does not name stays.
 */
async function applyRowTags(client: PoolClient, wabaId: number): Promise<void> {
  await client.query(
    `insert into tags (waba_account_id, name)
     select $1, tag_name
       from (select distinct on (lower(tag_name)) tag_name from import_row_tags order by lower(tag_name)) named
     on conflict (waba_account_id, lower(name)) do nothing`,
    [wabaId],
  );
  await client.query(
    `insert into contact_tags (waba_account_id, contact_id, tag_id)
     select distinct $1::bigint, c.id, t.id
       from import_row_tags r
       join contacts c on c.waba_account_id = $1 and c.whatsapp_number = r.whatsapp_number
       join tags t on t.waba_account_id = $1 and lower(t.name) = lower(r.tag_name)
     on conflict do nothing`,
    [wabaId],
  );
}

/** Sends rows in COPY's text format through one COPY … FROM STDIN. */
async function copyBytes(client: PoolClient, sql: string, bytes: Buffer): Promise<void> {
  const copy = client.query(copyFrom(sql));
  copy.end(bytes);
  await finished(copy);
}
