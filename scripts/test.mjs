// `npm test`: install what is missing, then typecheck, lint, unit, web, integration and end-to-end suites,
// ending with one line `N passed, N failed` summed over all of them. Node built-ins only until installed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDependencies, repoRoot } from './ensure-deps.mjs';

const CHROMIUM = '/usr/bin/chromium';
const TYPECHECK_PROJECTS = ['packages/contracts', 'packages/cloud-sim', 'apps/server', 'apps/web', '.'];
const VITEST_SUITES = ['unit', 'web', 'integration', 'e2e'];
// A suite whose files are split over vitest projects (vitest.config.ts): they run in one vitest call.
const SUITE_PROJECTS = {
  integration: ['integration', 'integration-alone'],
  e2e: ['e2e', 'e2e-alone'],
};
// The source trees whose module boundaries dependency-cruiser checks (.dependency-cruiser.cjs, decision 071).
const boundaryRoots = () => [
  'apps/server/src',
  'apps/web/src',
  ...readdirSync(path.join(repoRoot, 'packages'))
    .map((name) => `packages/${name}/src`)
    .filter((dir) => existsSync(path.join(repoRoot, dir))),
];
// `--only typecheck,lint` or HERALD_TEST_SUITES=unit,web runs a subset (typecheck and lint are suites too).
const onlyFlag = process.argv.indexOf('--only');
const subset = onlyFlag >= 0 ? process.argv[onlyFlag + 1] : process.env.HERALD_TEST_SUITES;
const selected = subset?.split(',').map((s) => s.trim());
const wants = (suite) => !selected || selected.includes(suite);

const results = [];
// Seconds per test file, written to test-timings.json at the end with the ten slowest printed.
const fileTimings = [];
const record = (suite, passed, failed, note = '') => results.push({ suite, passed, failed, note });
// Names of what failed, repeated at the very end so a log's last lines say which test to look at.
const failures = [];

function run(command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
  return { ok: result.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function bin(name) {
  return path.join(repoRoot, 'node_modules/.bin', name);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing: the browser tests need ${CHROMIUM}. Install it with: sudo apt-get install -y chromium`,
    );
    return false;
  }
  console.log('Installing Debian chromium for the browser tests (apt-get)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(CHROMIUM))
    console.error('apt-get could not install chromium; the browser tests will fail.');
  return existsSync(CHROMIUM);
}

/**
 * A broken file's reason on one line: its first two non-empty lines (the first alone can be only a heading) and
 * its last three (a process's output ends with why it stopped), each cut to 160 characters.
 */
function reasonLine(message) {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => (line.length > 160 ? `${line.slice(0, 159)}…` : line));
  const shown = lines.length <= 5 ? lines : [...lines.slice(0, 2), '…', ...lines.slice(-3)];
  return shown.join(' | ');
}

function runVitestSuite(suite, reportDir) {
  const report = path.join(reportDir, `${suite}.json`);
  console.log(`\n=== ${suite} tests ===`);
  const outcome = run(bin('vitest'), [
    'run',
    ...(SUITE_PROJECTS[suite] ?? [suite]).flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (!existsSync(report)) {
    record(suite, 0, 1, 'the runner crashed before reporting');
    return;
  }
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  let failed = summary.numFailedTests;
  // A file that failed without a failed test of its own (it did not load, or a hook failed and its tests were
  // skipped) counts as one failure: skipped tests must never turn a broken file into a pass.
  const brokenFiles = summary.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
  failed += brokenFiles.length;
  for (const file of summary.testResults) {
    const where = path.relative(repoRoot, file.name);
    fileTimings.push({ suite, file: where, seconds: Math.round((file.endTime - file.startTime) / 100) / 10 });
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${suite}: ${where} > ${test.fullName}`);
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(`${suite}: ${where} (did not load, or a hook failed): ${reasonLine(file.message ?? '')}`);
  }
  if (!outcome.ok && failed === 0) failed = 1;
  const skipped = summary.numPendingTests + summary.numTodoTests;
  record(
    suite,
    summary.numPassedTests,
    failed,
    `${outcome.seconds}s${skipped ? `, ${skipped} skipped (not counted)` : ''}`,
  );
}

ensureDependencies();
const started = Date.now();
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'herald-test-'));

if (wants('typecheck')) {
  console.log('\n=== typecheck ===');
  let passed = 0;
  let failed = 0;
  for (const project of TYPECHECK_PROJECTS) {
    const outcome = run(bin('tsc'), ['-p', project]);
    if (outcome.ok) passed += 1;
    else {
      failed += 1;
      failures.push(`typecheck: tsc -p ${project}`);
    }
    console.log(`tsc -p ${project}: ${outcome.ok ? 'ok' : 'FAILED'} (${outcome.seconds}s)`);
  }
  record('typecheck', passed, failed, `${TYPECHECK_PROJECTS.length} projects`);
}

if (wants('lint')) {
  console.log('\n=== lint ===');
  const eslint = run(bin('eslint'), ['.', '--max-warnings=0']);
  const prettier = run(bin('prettier'), ['--check', '.', '--log-level=warn']);
  // Import cycles, features reaching into each other, production code importing test helpers.
  const boundaries = run(bin('depcruise'), [
    '--config',
    '.dependency-cruiser.cjs',
    '--output-type',
    'err-long',
    ...boundaryRoots(),
  ]);
  console.log(`depcruise: ${boundaries.ok ? 'ok' : 'FAILED'} (${boundaries.seconds}s)`);
  const checks = { eslint, prettier, depcruise: boundaries };
  for (const [name, outcome] of Object.entries(checks)) if (!outcome.ok) failures.push(`lint: ${name}`);
  const outcomes = Object.values(checks);
  record(
    'lint',
    outcomes.filter((outcome) => outcome.ok).length,
    outcomes.filter((outcome) => !outcome.ok).length,
    Object.keys(checks).join(', '),
  );
}

for (const suite of VITEST_SUITES) {
  if (!wants(suite)) continue;
  if (suite === 'e2e' && !ensureChromium()) {
    record('e2e', 0, 1, 'chromium missing');
    continue;
  }
  runVitestSuite(suite, reportDir);
}
rmSync(reportDir, { recursive: true, force: true });

const passed = results.reduce((sum, r) => sum + r.passed, 0);
const failed = results.reduce((sum, r) => sum + r.failed, 0);
console.log('\n=== summary ===');
for (const r of results) {
  console.log(
    `${r.suite.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.note}`,
  );
}
const slowest = [...fileTimings].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
console.log('\nslowest test files:');
for (const t of slowest) console.log(`${t.seconds.toFixed(1).padStart(7)}s  ${t.suite.padEnd(12)} ${t.file}`);
writeFileSync(
  path.join(repoRoot, 'test-timings.json'),
  `${JSON.stringify({ suites: results, files: fileTimings }, null, 2)}\n`,
);
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
console.log(`${passed} passed, ${failed} failed`);
// CI (scripts/ci.mjs) runs this twice and sums the runs.
if (process.env.HERALD_TEST_SUMMARY_FILE) {
  writeFileSync(process.env.HERALD_TEST_SUMMARY_FILE, JSON.stringify({ passed, failed, failures }));
}
process.exit(failed > 0 ? 1 : 0);
