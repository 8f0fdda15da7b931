import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface CallLogEntry {
  method: string;
  path: string;
  body: unknown;
  result: unknown;
}

const SECRET_KEYS = new Set(['pin', 'client_secret', 'access_token']);
/** Buffered lines are written at least this often, or sooner when this many wait. */
const FLUSH_INTERVAL_MS = 100;
const FLUSH_LINES = 2000;

/** Secrets never reach the disk; the rest of the call is kept verbatim so the log is a faithful record. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_KEYS.has(key) ? '******' : redactSecrets(v)]),
  );
}

export function redactTopLevel(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (!Object.keys(record).some((key) => SECRET_KEYS.has(key))) return value;
  return Object.fromEntries(
    Object.entries(record).map(([key, v]) => [key, SECRET_KEYS.has(key) ? '******' : v]),
  );
}

/**
 * Append-only JSONL record of every state-changing call. Appends are chained so lines land in call
 * order, and callers await them so a line is on disk before its answer leaves. High-volume calls (sent
 * messages) use `enqueue` instead: lines are buffered and written in one append every 100 ms, still in
 * call order relative to every other line.
 */
export class CallLog {
  private pending: Promise<void> = Promise.resolve();
  private directoryReady = false;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly file: string | undefined) {}

  append(entry: CallLogEntry): Promise<void> {
    if (this.file === undefined) return Promise.resolve();
    this.buffer.push(this.line(entry));
    return this.flush();
  }

  /**
   * Buffers a line without waiting for the disk. Only top-level secrets are masked (all a Graph body can
   * carry: `access_token`), which spares a deep copy of every sent message.
   */
  enqueue(entry: CallLogEntry): void {
    if (this.file === undefined) return;
    this.buffer.push(this.line(entry, redactTopLevel));
    if (this.buffer.length >= FLUSH_LINES) {
      this.flushInBackground();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => this.flushInBackground(), FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Writes every buffered line; resolves once they (and all earlier ones) are on disk. */
  flush(): Promise<void> {
    const file = this.file;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (file === undefined || this.buffer.length === 0) return this.pending;
    const text = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    this.pending = this.pending.then(async () => {
      if (!this.directoryReady) {
        await mkdir(dirname(file), { recursive: true });
        this.directoryReady = true;
      }
      await appendFile(file, text);
    });
    return this.pending;
  }

  private flushInBackground(): void {
    // A failed write surfaces on the next awaited append; nothing here may crash the process.
    this.flush().catch(() => undefined);
  }

  private line(entry: CallLogEntry, redact: (body: unknown) => unknown = redactSecrets): string {
    return JSON.stringify({ ts: new Date().toISOString(), ...entry, body: redact(entry.body) });
  }
}
