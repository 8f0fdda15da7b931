import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface CallLogEntry {
  method: string;
  path: string;
  body: unknown;
  result: unknown;
}

/**
 * Keys whose values are secrets, in a call's parameters or in its answer: PINs, the app secret, every kind of
 * token (user, business, exchanged, inspected) and the one-time Embedded Signup code a token is bought with.
 */
export const SECRET_KEYS = new Set([
  'pin',
  'client_secret',
  'access_token',
  'input_token',
  'fb_exchange_token',
  'code',
  'token',
  'password',
]);
/** Buffered lines are written at least this often, or sooner when this many wait. */
const FLUSH_INTERVAL_MS = 100;
const FLUSH_LINES = 2000;

/**
 * Secrets never reach the disk; the rest of the call is kept verbatim so the log is a faithful record. A `code`
 * is masked only when it is text: Graph's error codes are numbers, an authorization code never is.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, isSecret(key, v) ? '******' : redactSecrets(v)]),
  );
}

function isSecret(key: string, value: unknown): boolean {
  return SECRET_KEYS.has(key) && (key !== 'code' || typeof value === 'string');
}

export function redactTopLevel(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (!Object.entries(record).some(([key, v]) => isSecret(key, v))) return value;
  return Object.fromEntries(Object.entries(record).map(([key, v]) => [key, isSecret(key, v) ? '******' : v]));
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
   * carry: `access_token`), which spares a deep copy of every sent message; its answer (ids) is kept as is.
   */
  enqueue(entry: CallLogEntry): void {
    if (this.file === undefined) return;
    this.buffer.push(this.line(entry, true));
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

  /** Parameters and answer alike are masked: an answer may carry a token (the code exchange) or a code. */
  private line(entry: CallLogEntry, fast = false): string {
    const body = fast ? redactTopLevel(entry.body) : redactSecrets(entry.body);
    const result = fast ? entry.result : redactSecrets(entry.result);
    return JSON.stringify({ ts: new Date().toISOString(), ...entry, body, result });
  }
}
