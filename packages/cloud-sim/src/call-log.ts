import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface CallLogEntry {
  method: string;
  path: string;
  body: unknown;
  result: unknown;
}

const SECRET_KEYS = new Set(['pin', 'client_secret', 'access_token']);

/** Secrets never reach the disk; the rest of the call is kept verbatim so the log is a faithful record. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, SECRET_KEYS.has(key) ? '******' : redactSecrets(v)]),
  );
}

/**
 * Append-only JSONL record of every state-changing call. Appends are chained so lines land in call
 * order, and callers await them so a line is on disk before its answer leaves.
 */
export class CallLog {
  private pending: Promise<void> = Promise.resolve();
  private directoryReady = false;

  constructor(private readonly file: string | undefined) {}

  append(entry: CallLogEntry): Promise<void> {
    const file = this.file;
    if (file === undefined) return Promise.resolve();
    const line = JSON.stringify({ ts: new Date().toISOString(), ...entry, body: redactSecrets(entry.body) });
    this.pending = this.pending.then(async () => {
      if (!this.directoryReady) {
        await mkdir(dirname(file), { recursive: true });
        this.directoryReady = true;
      }
      await appendFile(file, `${line}\n`);
    });
    return this.pending;
  }
}
