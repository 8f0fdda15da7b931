import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSecretsFrom, loadOrCreateLocalSecrets, secretsFile } from './local-secrets';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-secrets-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const KEYS = ['JWT_SECRET', 'ENCRYPTION_KEY', 'EMBEDDED_PG_OWNER_PASSWORD', 'EMBEDDED_PG_APP_PASSWORD'];
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('DATA_DIR/secrets.json', () => {
  it('is created once, mode 0600, with every secret, and read back unchanged', async () => {
    const first = loadOrCreateLocalSecrets(dataDir);
    expect(Object.keys(first).sort()).toEqual([...KEYS].sort());
    expect(first.EMBEDDED_PG_OWNER_PASSWORD).not.toBe(first.EMBEDDED_PG_APP_PASSWORD);
    expect(first.EMBEDDED_PG_OWNER_PASSWORD).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(first.ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(await modeOf(secretsFile(dataDir))).toBe(0o600);
    expect(loadOrCreateLocalSecrets(dataDir)).toEqual(first);
    expect(JSON.parse(await readFile(secretsFile(dataDir), 'utf8'))).toEqual(first);
  });

  it('upgrades a file written by an older version: keeps its keys, adds the missing ones, stays 0600', async () => {
    const older = { JWT_SECRET: 'j'.repeat(64), ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    await writeFile(secretsFile(dataDir), JSON.stringify(older), { mode: 0o644 });
    const upgraded = loadOrCreateLocalSecrets(dataDir);
    expect(upgraded).toMatchObject(older);
    expect(upgraded.EMBEDDED_PG_OWNER_PASSWORD).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(upgraded.EMBEDDED_PG_APP_PASSWORD).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await modeOf(secretsFile(dataDir))).toBe(0o600);
    // Generated once: the next read finds the same passwords.
    expect(loadOrCreateLocalSecrets(dataDir)).toEqual(upgraded);
  });

  it('refuses a file that is not a JSON object instead of overwriting it', async () => {
    await writeFile(secretsFile(dataDir), '[1, 2]');
    expect(() => loadOrCreateLocalSecrets(dataDir)).toThrow(/not a JSON object/);
    expect(await readFile(secretsFile(dataDir), 'utf8')).toBe('[1, 2]');
  });

  it('hands the server and worker only their own secrets, never the database passwords', () => {
    expect(Object.keys(appSecretsFrom(loadOrCreateLocalSecrets(dataDir))).sort()).toEqual([
      'ENCRYPTION_KEY',
      'JWT_SECRET',
    ]);
  });
});
