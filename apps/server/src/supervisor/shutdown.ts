/**
 * Runs `stop` once when the process is asked to end: SIGINT, SIGTERM, or the supervisor's IPC channel
 * closing (the supervisor died), so a child never outlives it. A stuck stop is cut off after `graceMs`.
 */
export function stopOnSignal(stop: () => Promise<void>, graceMs = 4_000): void {
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), graceMs).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  if (process.send) process.once('disconnect', shutdown);
}
