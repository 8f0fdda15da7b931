import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseStateDocument } from './state-document';
import type { CapturedState, StateDocument, StoredUpload } from './state-document';

/** How long after a change the state is written; changes in between share the write. */
export const DEFAULT_SNAPSHOT_DELAY_MS = 1000;
const STATE_FILE = 'state.json';
const UPLOADS_DIR = 'uploads';

/** Where an upload's bytes are kept: its id hashed, so no id text ever becomes a path. */
const uploadFileName = (id: string) => `${createHash('sha256').update(id).digest('hex').slice(0, 40)}.bin`;

/** Secrets (tokens, codes, PINs) are in state.json: only the sandbox's user may read it. */
async function writeAtomically(file: string, content: string | Buffer): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, content, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

export interface LoadedState {
  document: StateDocument;
  uploadBytes: (session: StoredUpload) => Buffer | null;
}

/**
 * The sandbox's state on disk, in `dir`: state.json (written whole, atomically, at most every
 * `delayMs` while things change, and on close) and uploads/<hash>.bin (each upload's bytes, rewritten only when
 * they grew). No write happens on the path of a request: `changed()` only arms a timer.
 */
export class StatePersistence {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private closed = false;
  /** Bytes of each upload already on disk, so a finished upload is not rewritten with every snapshot. */
  private readonly uploadsOnDisk = new Map<string, number>();

  constructor(
    private readonly dir: string,
    private readonly capture: () => CapturedState,
    private readonly delayMs = DEFAULT_SNAPSHOT_DELAY_MS,
    private readonly onError: (error: Error) => void = (error) =>
      process.stderr.write(`sandbox: could not save its state: ${error.message}\n`),
  ) {}

  get stateFile(): string {
    return join(this.dir, STATE_FILE);
  }

  /** What the last run left, read synchronously at start-up; null when there is nothing (first run, reset). */
  load(): LoadedState | null {
    if (!existsSync(this.stateFile)) return null;
    const document = parseStateDocument(readFileSync(this.stateFile, 'utf8'), this.stateFile);
    return {
      document,
      uploadBytes: (session) => {
        const file = join(this.dir, UPLOADS_DIR, uploadFileName(session.id));
        if (!existsSync(file)) return null;
        const bytes = readFileSync(file).subarray(0, session.offset);
        this.uploadsOnDisk.set(session.id, bytes.length);
        return bytes;
      },
    };
  }

  /** Something changed: the state is written within `delayMs`. Cheap enough for every request. */
  changed(): void {
    this.dirty = true;
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush().catch((error: Error) => this.onError(error));
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes the state now if it changed; resolves once it (and any earlier write) is on disk. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.catch(() => undefined).then(() => this.write());
    return this.writing;
  }

  /** The last write, for close: everything as it stands, pending statuses and reviews included. */
  async close(): Promise<void> {
    this.closed = true;
    this.dirty = true;
    await this.flush();
  }

  /** Reset: nothing of the old state stays on disk. */
  async clear(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    await this.writing.catch(() => undefined);
    this.uploadsOnDisk.clear();
    await rm(this.stateFile, { force: true });
    await rm(join(this.dir, UPLOADS_DIR), { recursive: true, force: true });
  }

  private async write(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const { document, uploadBytes } = this.capture();
    try {
      await mkdir(this.dir, { recursive: true });
      for (const [id, { offset, chunks }] of uploadBytes) {
        if (this.uploadsOnDisk.get(id) === offset) continue;
        await mkdir(join(this.dir, UPLOADS_DIR), { recursive: true });
        await writeAtomically(join(this.dir, UPLOADS_DIR, uploadFileName(id)), Buffer.concat(chunks));
        this.uploadsOnDisk.set(id, offset);
      }
      await writeAtomically(this.stateFile, JSON.stringify(document));
    } catch (error) {
      // Tried again with the next change (or on close).
      this.dirty = true;
      throw error;
    }
  }
}
