import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-sandbox-cli-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function startCli(env: Record<string, string>) {
  return spawn(process.execPath, ['--import', 'tsx', 'packages/cloud-sim/src/cli.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(child: ReturnType<typeof startCli>): Promise<number | null> {
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

describe('cli', () => {
  it('exits 1 with one line naming SANDBOX_PORT when the port is not a number', async () => {
    const child = startCli({ SANDBOX_PORT: 'abc' });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exited(child)).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('SANDBOX_PORT');
    expect(stderr).toContain('abc');
  });

  it.each([
    ['SANDBOX_REVIEW_DELAY_MS', 'soon'],
    ['SANDBOX_WEBHOOK_URL', 'not-a-url'],
    ['SANDBOX_WEBHOOK_MAX_ATTEMPTS', '0'],
    ['SANDBOX_WEBHOOK_RETRY_MAX_WAIT_MS', 'hourly'],
    ['SANDBOX_WEBHOOK_RETRY_MAX_AGE_MS', '7d'],
    ['SANDBOX_CONTROL_TOKEN', 'too-short'],
    ['SANDBOX_DEFAULT_MESSAGING_LIMIT', 'TIER_1K'],
    ['SANDBOX_US_MARKETING_RULE', 'maybe'],
  ])('exits 1 naming %s when it is %j', async (name, value) => {
    const child = startCli({ SANDBOX_PORT: '0', [name]: value });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exited(child)).toBe(1);
    expect(stderr).toContain(name);
  });

  it('listens, announces its URL, logs to SANDBOX_LOG_FILE, and exits 0 promptly on SIGTERM', async () => {
    const logFile = join(dir, 'deep', 'calls.jsonl');
    const child = startCli({
      SANDBOX_PORT: '0',
      SANDBOX_LOG_FILE: logFile,
      META_APP_ID: '777',
      META_APP_SECRET: 's',
      SANDBOX_REVIEW_DELAY_MS: '1234',
      SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/whatsapp',
      SANDBOX_DEFAULT_MESSAGING_LIMIT: 'TIER_UNLIMITED',
      SANDBOX_US_MARKETING_RULE: 'false',
    });
    const exit = exited(child);
    const line = await new Promise<string>((done) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) done(out.trim());
      });
    });
    expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('sandbox listening on '.length);

    const created = await fetch(`${url}/__sandbox/wabas`, { method: 'POST' });
    const { code } = (await created.json()) as { code: string };
    const exchange = await fetch(
      `${url}/v21.0/oauth/access_token?client_id=777&client_secret=s&code=${code}`,
    );
    expect(exchange.status).toBe(200);
    expect((await readFile(logFile, 'utf8')).trim().split('\n')).toHaveLength(2);
    const config = (await (await fetch(`${url}/__sandbox/config`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      review_delay_ms: 1234,
      webhook_url: 'http://127.0.0.1:9/webhooks/whatsapp',
      default_messaging_limit: 'TIER_UNLIMITED',
      us_marketing_rule: false,
    });

    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('takes the retry policy from the environment and asks SANDBOX_CONTROL_TOKEN of control callers', async () => {
    const token = 'control-token-0123456789';
    const child = startCli({
      SANDBOX_PORT: '0',
      SANDBOX_LOG_FILE: join(dir, 'guarded', 'calls.jsonl'),
      SANDBOX_CONTROL_TOKEN: token,
      SANDBOX_WEBHOOK_RETRY_BASE_MS: '20',
      SANDBOX_WEBHOOK_RETRY_MAX_WAIT_MS: '400',
      SANDBOX_WEBHOOK_RETRY_MAX_AGE_MS: '60000',
    });
    const exit = exited(child);
    const line = await new Promise<string>((done) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) done(out.trim());
      });
    });
    const url = line.slice('sandbox listening on '.length);
    expect((await fetch(`${url}/__sandbox/config`)).status).toBe(401);
    const answer = await fetch(`${url}/__sandbox/config`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      webhook_retry_base_ms: 20,
      webhook_retry_max_wait_ms: 400,
      webhook_retry_max_age_ms: 60000,
      webhook_max_attempts: null,
    });
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
