import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from '../../../test-support/database-server';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-database';
import { createAppRoleSql, withCredentials } from './db/app-role';
import { serverCli } from './paths';

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverCli, ...args], {
      cwd: path.dirname(serverCli),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

// A role made the way docs/production.md tells a DBA to, with no grants yet.
const role = `herald_cli_test_${randomBytes(4).toString('hex')}`;
const password = randomBytes(18).toString('base64url');
let db: TestDatabase;
let appUrl: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await adminQuery(db.url, createAppRoleSql(role, password));
  appUrl = withCredentials(db.url, role, password);
});
afterAll(async () => {
  await db.drop();
  await adminQuery(inject('databaseAdminUrl'), `drop role if exists ${role}`);
});

async function appCanReadContacts(): Promise<boolean> {
  const client = new pg.Client({ connectionString: appUrl });
  await client.connect();
  try {
    await client.query('select count(*) from contacts');
    return true;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

describe('herald migrate with DATABASE_OWNER_URL', () => {
  it("migrates as the owner and grants DATABASE_URL's role what the app needs", async () => {
    expect(await appCanReadContacts()).toBe(false);
    const result = await runCli(['migrate'], { DATABASE_OWNER_URL: db.url, DATABASE_URL: appUrl });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`granted ${role} what the app needs`);
    expect(await appCanReadContacts()).toBe(true);
  });

  it('names DATABASE_OWNER_URL when it is unreachable', async () => {
    const result = await runCli(['migrate'], {
      DATABASE_OWNER_URL: 'postgres://owner@127.0.0.1:1/herald',
      DATABASE_URL: appUrl,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^herald: DATABASE_OWNER_URL is unreachable/);
  });
});

describe('herald grant-app-role', () => {
  it('--print prints the role statement and the grants for the database named by the URL', async () => {
    const result = await runCli(['grant-app-role', 'herald_app', '--print'], {
      DATABASE_OWNER_URL: 'postgres://owner@db.example.com:5432/shop',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'create role "herald_app" with login nosuperuser nocreatedb nocreaterole',
    );
    expect(result.stdout).toContain('grant connect, temporary on database "shop" to "herald_app";');
  });

  it('refuses a missing role name with its usage', async () => {
    const result = await runCli(['grant-app-role'], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('usage: herald grant-app-role <role> [--print]');
  });
});
