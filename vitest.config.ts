import { defineConfig } from 'vitest/config';

// Four suites, run one at a time by scripts/test.mjs so each gets its own count:
//   unit        – pure logic, no I/O (packages, server)          *.test.ts
//   web         – React components in jsdom (apps/web/vite.config.ts)
//   integration – real Postgres and real HTTP listeners           *.int.test.ts
//                 (two projects: two files at a time, then the process-killing ones alone)
//   e2e         – real Chromium against `herald start`           e2e/**/*.spec.ts
//                 (two projects: the specs sharing stacks two at a time, then those with their own alone)
const INTEGRATION_FILES = ['packages/*/src/**/*.int.test.ts', 'apps/server/src/**/*.int.test.ts'];
// Files that kill, restart or time processes and connections: run one at a time after the others, so what they
// measure (a takeover within a lease, a shutdown's drain) is not the neighbour's load.
const ALONE_INTEGRATION_FILES = [
  'apps/server/src/fault-suite/**/*.int.test.ts',
  'apps/server/src/supervisor/**/*.int.test.ts',
  'apps/server/src/scale-out/**/*.int.test.ts',
  'apps/server/src/db/database-restart.int.test.ts',
  'apps/server/src/features/broadcasts/sending/worker-crash.int.test.ts',
];
const INTEGRATION_OPTIONS = {
  environment: 'node' as const,
  globalSetup: ['test-support/database-global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// The specs that start a stack of their own (they restart it, change its settings or count sandbox-wide): one
// at a time, after the specs that share stacks.
const ALONE_E2E_FILES = [
  'e2e/broadcast-rules.spec.ts',
  'e2e/contact-tags.spec.ts',
  'e2e/restart-mid-broadcast.spec.ts',
  'e2e/sandbox-embedded-signup.spec.ts',
  'e2e/sending-safely.spec.ts',
  'e2e/start-stop.spec.ts',
  'e2e/templates.spec.ts',
];
const E2E_OPTIONS = {
  environment: 'node' as const,
  testTimeout: 90_000,
  hookTimeout: 180_000,
  // A page answers after a debounce, a request and a render: on a loaded machine that is seconds, past
  // expect.poll's default second. A poll that names its own timeout keeps it.
  expect: { poll: { timeout: 10_000, interval: 100 } },
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      'apps/web',
      {
        test: {
          name: 'integration',
          include: INTEGRATION_FILES,
          exclude: [...ALONE_INTEGRATION_FILES, '**/node_modules/**'],
          ...INTEGRATION_OPTIONS,
          // Each file has a database and listeners of its own, and most of their time is spent waiting on
          // Postgres, HTTP and timers, so two at once fit this 2-core machine (vitest's default here is one).
          maxWorkers: 2,
          // Files share their worker's modules instead of importing the app again each (decision 097).
          isolate: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: ALONE_INTEGRATION_FILES,
          ...INTEGRATION_OPTIONS,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          exclude: [...ALONE_E2E_FILES, '**/node_modules/**'],
          ...E2E_OPTIONS,
          // The stacks that spec files share (e2e/support/shared-stack.ts), started and stopped once a run.
          globalSetup: ['e2e/support/global-setup.ts'],
          // Two files at a time: a spec spends most of its time waiting on the browser and the stack.
          maxWorkers: 2,
          sequence: { groupOrder: 4 },
        },
      },
      {
        test: {
          name: 'e2e-alone',
          include: ALONE_E2E_FILES,
          ...E2E_OPTIONS,
          maxWorkers: 1,
          sequence: { groupOrder: 5 },
        },
      },
    ],
  },
});
