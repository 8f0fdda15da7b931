import pg from 'pg';
import type { BroadcastEngine, EngineLog } from './broadcast-engine';
import { BROADCASTS_DUE_CHANNEL } from './broadcasts-service';

/**
 * Runs the engine's tick every second, and at once when the API announces a new broadcast (LISTEN/NOTIFY),
 * one tick at a time. Scheduled broadcasts live in Postgres, so they start on time after any restart.
 */
export async function startEngineLoop(engine: BroadcastEngine, databaseUrl: string, log?: EngineLog) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = engine
      .tick()
      .catch((error: Error) => log?.error({ err: error }, 'broadcast tick failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const listener = new pg.Client({ connectionString: databaseUrl });
  listener.on('error', () => undefined);
  await listener.connect();
  await listener.query(`listen ${BROADCASTS_DUE_CHANNEL}`);
  listener.on('notification', tick);
  const timer = setInterval(tick, 1_000);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.end().catch(() => undefined);
      await running;
      await engine.stop();
    },
  };
}
