import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LocalSecrets {
  JWT_SECRET: string;
  ENCRYPTION_KEY: string;
  /** Password of the embedded cluster's owner (superuser), used only by `herald start` to migrate. */
  EMBEDDED_PG_OWNER_PASSWORD: string;
  /** Password of the embedded cluster's least-privilege application role, used by the server and worker. */
  EMBEDDED_PG_APP_PASSWORD: string;
}

/** How each secret is made; a key missing from an older secrets.json is generated the same way. */
const GENERATORS: Record<keyof LocalSecrets, () => string> = {
  JWT_SECRET: () => randomBytes(48).toString('base64url'),
  ENCRYPTION_KEY: () => randomBytes(32).toString('base64'),
  // base64url: no quote, backslash or URL-reserved character, so it can sit in SQL literals and URLs as is.
  EMBEDDED_PG_OWNER_PASSWORD: () => randomBytes(24).toString('base64url'),
  EMBEDDED_PG_APP_PASSWORD: () => randomBytes(24).toString('base64url'),
};

export const secretsFile = (dataDir: string) => path.join(dataDir, 'secrets.json');

/**
 * For `npm start` on one machine only: secrets generated once and kept in DATA_DIR/secrets.json (mode 0600),
 * so sessions, encrypted tokens and the embedded database's passwords survive restarts without anyone
 * configuring anything. A file written by an older version keeps its values and gains the keys it lacks.
 * Production sets JWT_SECRET and ENCRYPTION_KEY in the environment, which always wins, and brings its own
 * database.
 */
export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = secretsFile(dataDir);
  const stored = existsSync(file) ? readStored(file) : {};
  const secrets = {} as LocalSecrets;
  let added = false;
  for (const key of Object.keys(GENERATORS) as (keyof LocalSecrets)[]) {
    const value = stored[key];
    if (typeof value === 'string' && value.length > 0) {
      secrets[key] = value;
    } else {
      secrets[key] = GENERATORS[key]();
      added = true;
    }
  }
  if (added) {
    mkdirSync(dataDir, { recursive: true });
    // Written beside, then renamed over: a crash never leaves a half-written file that would lose the keys.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ ...stored, ...secrets }, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  }
  // A file copied in or made by hand may be readable by others; it holds the database owner's password.
  chmodSync(file, 0o600);
  return secrets;
}

function readStored(file: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} is not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** The secrets the server and worker take from the file when the environment does not set them. */
export function appSecretsFrom(secrets: LocalSecrets): Pick<LocalSecrets, 'JWT_SECRET' | 'ENCRYPTION_KEY'> {
  return { JWT_SECRET: secrets.JWT_SECRET, ENCRYPTION_KEY: secrets.ENCRYPTION_KEY };
}
