// `npm start`: install what is missing, then hand over to `herald start` (apps/server/src/cli.ts).
// Node built-ins only until the install is done.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './ensure-deps.mjs';

ensureDependencies();

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/cli.ts'), 'start'],
  { cwd: process.cwd(), stdio: 'inherit' },
);
// The supervisor shuts everything down in order; pass our signals on and wait for it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
