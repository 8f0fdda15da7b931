import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, webDir } from '../paths';

const WEB_INPUTS = [
  path.join(webDir, 'src'),
  path.join(webDir, 'index.html'),
  path.join(webDir, 'vite.config.ts'),
  path.join(webDir, 'package.json'),
  path.join(repoRoot, 'packages/contracts/src'),
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when the built SPA is missing or older than any of its sources. */
export function webBuildIsStale(distDir: string): boolean {
  const builtIndex = path.join(distDir, 'index.html');
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return WEB_INPUTS.some((input) => newestMtime(input) > builtAt);
}

/**
 * Builds the SPA into a folder of its own beside `distDir`, then swaps it in: two starts that find the build
 * stale at once (two `npm start`s, or the browser tests' stacks) each build whole, and a server never reads a
 * half-written or half-emptied `dist`.
 */
export async function buildWeb(distDir: string, log: (line: string) => void): Promise<void> {
  const unique = `${process.pid}-${Date.now()}`;
  const buildDir = `${distDir}.build-${unique}`;
  const viteBin = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [viteBin, 'build', '--logLevel', 'warn', '--outDir', buildDir, '--emptyOutDir'],
        { cwd: webDir, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
      child.stderr.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`web build exited with ${code}`)),
      );
    });
    const oldDir = `${distDir}.old-${unique}`;
    await rename(distDir, oldDir).catch(ignoreMissing);
    // Another start may have swapped its build in between: then that one, as whole as this, stays.
    await rename(buildDir, distDir).catch(ignoreTaken);
    await rm(oldDir, { recursive: true, force: true });
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

function ignoreTaken(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
}
