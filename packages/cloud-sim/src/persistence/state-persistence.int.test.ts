import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_DOCUMENT_VERSION } from './state-document';
import type { CapturedState } from './state-document';
import { StatePersistence } from './state-persistence';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-persistence-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A capture that counts its calls and carries one upload of `bytes`. */
function capturing(bytes: () => Buffer) {
  const calls = { count: 0 };
  const capture = (): CapturedState => {
    calls.count += 1;
    const upload = bytes();
    return {
      document: {
        version: STATE_DOCUMENT_VERSION,
        savedAt: new Date().toISOString(),
        records: { businesses: [], wabas: [], phoneNumbers: [], codes: [], tokens: [], subscriptions: [] },
        templates: { sequence: 0, templates: [] },
        uploads: [],
        media: [],
        reviews: [],
        statuses: { messages: [], queue: [] },
        webhooks: [],
      },
      uploadBytes: new Map([['upload:a', { offset: upload.length, chunks: [upload] }]]),
    };
  };
  return { calls, capture };
}

describe('StatePersistence', () => {
  it('writes nothing on the caller’s path and one snapshot for a burst of changes', async () => {
    const { calls, capture } = capturing(() => Buffer.from('abc'));
    const persistence = new StatePersistence(dir, capture, 30);
    for (let i = 0; i < 1000; i += 1) persistence.changed();
    expect(calls.count).toBe(0);
    expect(existsSync(persistence.stateFile)).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect(calls.count).toBe(1);
    expect(JSON.parse(await readFile(persistence.stateFile, 'utf8')).version).toBe(STATE_DOCUMENT_VERSION);
    expect((await stat(persistence.stateFile)).mode & 0o777).toBe(0o600);
    // No temp file is left behind: the snapshot is renamed into place.
    expect((await readdir(dir)).sort()).toEqual(['state.json', 'uploads']);
  });

  it('rewrites an upload’s bytes only when they grew', async () => {
    let bytes = Buffer.from('abc');
    const persistence = new StatePersistence(dir, capturing(() => bytes).capture, 10);
    await persistence.close();
    const [file] = await readdir(join(dir, 'uploads'));
    const path = join(dir, 'uploads', file!);
    const firstWrite = (await stat(path)).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await persistence.close();
    expect((await stat(path)).mtimeMs).toBe(firstWrite);
    bytes = Buffer.from('abcdef');
    await persistence.close();
    expect((await readFile(path)).toString()).toBe('abcdef');
  });

  it('reports a failed write and tries again with the next change', async () => {
    const errors: string[] = [];
    // A file where the folder should be: the first writes fail.
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'x');
    const persistence = new StatePersistence(
      blocked,
      capturing(() => Buffer.from('abc')).capture,
      10,
      (error) => errors.push(error.message),
    );
    persistence.changed();
    await new Promise((r) => setTimeout(r, 60));
    expect(errors).toHaveLength(1);
    await rm(blocked);
    await persistence.close();
    expect(existsSync(join(blocked, 'state.json'))).toBe(true);
  });

  it('clear() removes the snapshot and the upload bytes', async () => {
    const persistence = new StatePersistence(dir, capturing(() => Buffer.from('abc')).capture, 10);
    await persistence.close();
    await persistence.clear();
    expect(await readdir(dir)).toEqual([]);
  });
});
