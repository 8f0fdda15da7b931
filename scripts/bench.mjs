// `npm run bench`: runs every bench/*.bench.ts in turn; each prints its figures as one JSON object.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './ensure-deps.mjs';

ensureDependencies();
const benchDir = path.join(repoRoot, 'bench');
const only = process.argv[2];
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only)))
  .sort();
if (files.length === 0) {
  console.log(JSON.stringify({ benchmarks: 0, note: 'no benchmark matched' }));
}
let failed = 0;
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
