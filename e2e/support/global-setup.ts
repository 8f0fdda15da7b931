import { createServer, type IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWeb, webBuildIsStale } from '../../apps/server/src/supervisor/web-build';
import { removeDataDir, repoRoot, startStack, type Stack } from './stack';
import { assertStatusesLanded } from './statuses-landed';

// What this setup hands to every spec file (read by shared-stack.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    sharedStacks: string;
  }
}

/** What a spec file is told of a shared stack: where it listens and the file its output goes to. */
export interface SharedStackAddress {
  url: string;
  sandboxUrl: string;
  logFile: string;
}

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

/**
 * Once per e2e run: a small HTTP service on 127.0.0.1 from which spec files get a shared stack
 * (shared-stack.ts). Each spec file runs in a worker process of its own, so the stacks live here, in vitest's
 * main process, which outlasts the files. A stack per environment starts when the first file asks for it (a
 * run of files that all keep their own stack starts none); teardown stops each with SIGINT and removes its
 * data.
 */
export default async function setup(project: TestProject) {
  // Built here once when stale, before any stack starts: each start would otherwise build it too.
  const webDistDir = path.join(repoRoot, 'apps/web/dist');
  if (webBuildIsStale(webDistDir)) await buildWeb(webDistDir, (line) => console.log(line));
  const logDir = await mkdtemp(path.join(os.tmpdir(), 'herald-e2e-shared-'));
  const stacks = new Map<string, { started: Promise<Stack>; logFile: string }>();

  const server = createServer((request, response) => {
    void (async () => {
      try {
        const env = JSON.parse(await body(request)) as Record<string, string>;
        // Keyed by the environment, in a fixed order: files asking for the same one share its stack.
        const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));
        let entry = stacks.get(key);
        if (!entry) {
          const logFile = path.join(logDir, `stack-${stacks.size + 1}.log`);
          entry = { started: startStack({ env, logFile }), logFile };
          // A failed start is kept: the files after it fail at once with its message instead of each
          // waiting for a start of its own to fail.
          entry.started.catch(() => undefined);
          stacks.set(key, entry);
        }
        const stack = await entry.started;
        if (stack.process.exitCode !== null || stack.process.signalCode !== null) {
          throw new Error(`the shared stack has exited:\n${stack.output().slice(-6000)}`);
        }
        const address: SharedStackAddress = {
          url: stack.url,
          sandboxUrl: stack.sandboxUrl,
          logFile: entry.logFile,
        };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(address));
      } catch (error) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end((error as Error).message);
      }
    })();
  });
  // A start may take two attempts of up to 170 s each (startStack): more than Node's 5-minute request timeout.
  server.requestTimeout = 0;
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  project.provide('sharedStacks', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);

  return async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
    // Every shared stack is stopped and removed; then a status that did not land on its message fails the run.
    const lost: unknown[] = [];
    for (const { started } of stacks.values()) {
      const stack = await started.catch(() => undefined);
      if (!stack) continue;
      await assertStatusesLanded(stack).catch((error: unknown) => lost.push(error));
      await stack.stop();
      await removeDataDir(stack.dataDir);
    }
    await rm(logDir, { recursive: true, force: true });
    if (lost.length > 0) throw new AggregateError(lost, 'a shared stack has statuses that did not land');
  };
}
