import type { SupervisedChild } from './child';

/** How long to wait before each restart: doubling from `firstDelayMs` up to `maxDelayMs`. */
export interface RestartPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** A child that ran this long before exiting is healthy again: its next restart waits `firstDelayMs`. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  resetAfterMs: 60_000,
};

export interface RestartingChild {
  name: string;
  /** The first 'ready' message (startup fails if the first process exits before it). */
  ready<T>(): Promise<T>;
  /** Stops restarting, then stops the running process (SIGTERM, SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Keeps one child running: once it has been ready, an exit nobody asked for (a crash, a database restart it
 * did not survive) is announced on the console and followed by a fresh process after a back-off, instead
 * of stopping the whole stack (decision 021). A failure before the first 'ready' is left to the caller:
 * a stack that cannot start (a port taken, a bad setting) should stop, not loop.
 */
export function keepRunning(options: {
  name: string;
  spawn: () => SupervisedChild;
  write: (line: string) => void;
  policy?: RestartPolicy;
}): RestartingChild {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  let child = options.spawn();
  let startedAt = Date.now();
  let restarts = 0;
  let stopped = false;
  let pending: NodeJS.Timeout | undefined;

  const watch = (current: SupervisedChild) => {
    void current.exited.then((code) => {
      if (stopped) return;
      if (Date.now() - startedAt >= policy.resetAfterMs) restarts = 0;
      const delayMs = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** restarts);
      restarts += 1;
      const how = typeof code === 'number' ? `code ${code}` : code;
      options.write(`${options.name} exited unexpectedly (${how}); restarting in ${delayMs / 1_000} s`);
      pending = setTimeout(() => {
        pending = undefined;
        if (stopped) return;
        child = options.spawn();
        startedAt = Date.now();
        watch(child);
        child.message('ready').then(
          () => options.write(`${options.name} restarted`),
          () => undefined, // it exited again: the watch above announces it
        );
      }, delayMs);
    });
  };

  const firstReady = child.message<unknown>('ready');
  // Restarts begin once the first process has been ready; its failure to start is the caller's to report.
  firstReady.then(
    () => watch(child),
    () => undefined,
  );

  return {
    name: options.name,
    ready: <T>() => firstReady as Promise<T>,
    async stop(timeoutMs?: number) {
      stopped = true;
      clearTimeout(pending);
      await child.stop(timeoutMs);
    },
  };
}
