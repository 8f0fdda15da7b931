import { resolve } from 'node:path';
import { startSandbox } from './server';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8787;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port > 65535) {
    fail(`SANDBOX_PORT must be a port number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

const port = parsePort(process.env.SANDBOX_PORT);
const host = process.env.SANDBOX_HOST || '127.0.0.1';
const logFile = resolve(process.env.SANDBOX_LOG_FILE || './data/sandbox/calls.jsonl');

try {
  const sandbox = await startSandbox({
    port,
    host,
    logFile,
    ...(process.env.META_APP_ID ? { appId: process.env.META_APP_ID } : {}),
    ...(process.env.META_APP_SECRET ? { appSecret: process.env.META_APP_SECRET } : {}),
    ...(process.env.SANDBOX_PUBLIC_URL ? { publicUrl: process.env.SANDBOX_PUBLIC_URL } : {}),
  });
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);

  const stop = () => {
    // Open keep-alive sockets must not hold the process past a second.
    setTimeout(() => process.exit(0), 800).unref();
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  fail(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}`);
}
