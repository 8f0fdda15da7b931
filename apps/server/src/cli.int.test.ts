import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-database';
import { serverCli } from './paths';

function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverCli, ...args], {
      cwd: path.dirname(serverCli),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('herald CLI configuration errors', () => {
  it('PORT=abc → one line naming PORT, exit 1', async () => {
    const result = await runCli(['serve'], { PORT: 'abc', DATABASE_URL: db.url });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^herald: invalid configuration: PORT /);
  });

  it('unreachable DATABASE_URL → one line naming DATABASE_URL, exit 1', async () => {
    const result = await runCli(['serve'], {
      PORT: '0',
      DATABASE_URL: 'postgres://herald@127.0.0.1:1/herald',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^herald: DATABASE_URL is unreachable/);
  });

  it('start with an unreachable DATABASE_URL also fails fast', async () => {
    const result = await runCli(['start'], { DATABASE_URL: 'postgres://herald@127.0.0.1:1/herald' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^herald: DATABASE_URL is unreachable/);
  });

  it('migrate reports an up-to-date schema', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: db.url });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('nothing to apply');
  });

  it('an unknown command prints the usage and exits 2', async () => {
    const result = await runCli(['frobnicate'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage: herald');
  });
});
