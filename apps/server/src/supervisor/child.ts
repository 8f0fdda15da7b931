import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createLogFormatter } from './log-line';

export interface SupervisedChild {
  name: string;
  process: ChildProcess;
  /** Resolves with the exit code (or the signal name) when the process has exited. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL if it has not exited after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  /** Resolves with the first IPC message of the given type. */
  message<T>(type: string): Promise<T>;
}

/**
 * Spawns a TypeScript entry point through tsx in its own process group (so a terminal's Ctrl-C reaches only
 * the supervisor, which then stops the children in order) with an IPC channel (so the child notices if the
 * supervisor dies and stops too). Output lines are prefixed with the child's name.
 */
export function spawnChild(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  write: (line: string) => void,
): SupervisedChild {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const formatLogLine = createLogFormatter();
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      const formatted = formatLogLine(line);
      if (formatted !== null) write(`[${name}] ${formatted}`);
    });
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return {
    name,
    process: child,
    exited,
    async stop(timeoutMs = 3_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    message<T>(type: string) {
      return new Promise<T>((resolve, reject) => {
        const onMessage = (message: unknown) => {
          if (
            typeof message === 'object' &&
            message !== null &&
            (message as { type?: string }).type === type
          ) {
            child.off('message', onMessage);
            resolve(message as T);
          }
        };
        child.on('message', onMessage);
        void exited.then((code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
      });
    },
  };
}
