import { defineConfig } from 'vitest/config';

// Four suites, run one at a time by scripts/test.mjs so each gets its own count:
//   unit        – pure logic, no I/O (packages, server)          *.test.ts
//   web         – React components in jsdom (apps/web/vite.config.ts)
//   integration – real Postgres and real HTTP listeners           *.int.test.ts
//   e2e         – real Chromium against `herald start`           e2e/**/*.spec.ts
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      'apps/web',
      {
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.int.test.ts', 'apps/server/src/**/*.int.test.ts'],
          environment: 'node',
          globalSetup: ['test-support/database-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          environment: 'node',
          // The stacks that spec files share (e2e/support/shared-stack.ts), started and stopped once a run.
          globalSetup: ['e2e/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
