// CI (.ci/run): the README's `npm test`, whole, on this machine's Node, and its test suites again on the pinned
// Node LTS (decision 057; typecheck and lint once), ending with one line `N passed, N failed` summed over both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './ensure-deps.mjs';
import { ensureNodeLts, NODE_LTS_VERSION } from './ensure-node.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm test` with `node` first in PATH from binDir (or this machine's node) and reads its summary. */
function npmTest(label, binDir, suites) {
  console.log(`\n##### npm test on ${label} #####`);
  const summaryFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'herald-ci-')), 'summary.json');
  const env = { ...process.env, HERALD_TEST_SUMMARY_FILE: summaryFile };
  if (suites) env.HERALD_TEST_SUITES = suites;
  if (binDir) env.PATH = `${binDir}${path.delimiter}${env.PATH}`;
  const result = spawnSync(npm, ['test', '--loglevel=error'], { cwd: repoRoot, env, stdio: 'inherit' });
  // No summary (a crash before it) or a failing exit with none counted: one failure, so CI cannot read green.
  if (!existsSync(summaryFile))
    return { passed: 0, failed: 1, failures: ['npm test ended without a summary'] };
  const { passed, failed, failures = [] } = JSON.parse(readFileSync(summaryFile, 'utf8'));
  return { passed, failed: result.status !== 0 && failed === 0 ? 1 : failed, failures };
}

const runs = [];
runs.push({ label: `Node ${process.versions.node}`, ...npmTest(`Node ${process.versions.node}`) });
let ltsBin;
try {
  ltsBin = ensureNodeLts();
} catch (error) {
  console.error(String(error));
}
runs.push(
  ltsBin
    ? {
        label: `Node ${NODE_LTS_VERSION}`,
        // Typecheck and lint read the sources, not the runtime: the first run has checked them.
        ...npmTest(`Node ${NODE_LTS_VERSION}`, ltsBin, 'unit,web,integration,e2e'),
      }
    : { label: `Node ${NODE_LTS_VERSION}`, passed: 0, failed: 1, failures: ['Node LTS not installed'] },
);

console.log('\n##### CI summary #####');
for (const run of runs) {
  console.log(`${run.label.padEnd(14)} ${run.passed} passed, ${run.failed} failed`);
  for (const failure of run.failures) console.log(`  FAILED ${failure}`);
}
const passed = runs.reduce((sum, run) => sum + run.passed, 0);
const failed = runs.reduce((sum, run) => sum + run.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
