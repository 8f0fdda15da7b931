import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

export async function buildWeb(log: (line: string) => void): Promise<void> {
  const viteBin = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
      cwd: webDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
    child.stderr.on('data', (chunk: Buffer) => log(chunk.toString().trimEnd()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`web build exited with ${code}`))));
  });
}
