import path from 'node:path';

/** The repository root, from which the supervisor finds the other workspaces' entry points. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const serverCli = path.join(repoRoot, 'apps/server/src/cli.ts');
export const sandboxCli = path.join(repoRoot, 'packages/cloud-sim/src/cli.ts');
export const webDir = path.join(repoRoot, 'apps/web');
