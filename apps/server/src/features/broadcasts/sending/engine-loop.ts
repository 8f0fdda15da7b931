import pg from 'pg';
import { type Backoff, backoffMs } from '../../../db/backoff';
import type { BroadcastEngine } from './broadcast-engine';
import type { EngineLog } from './engine-log';
import { BROADCASTS_DUE_CHANNEL } from '../broadcasts-service';

/** Back-off after a failed tick or a lost LISTEN connection: 1 s, 2 s, 4 s … at most 30 s (decision 021). */
const BACKOFF_MS: Backoff = { first: 1_000, max: 30_000 };

/**
 * Runs the engine's tick every second, and at once when the API announces a new broadcast (LISTEN/NOTIFY),
 * one tick at a time. Scheduled broadcasts live in Postgres, so they start on time after any restart.
 * A database restart costs nothing but time: a failed tick is logged and the next waits longer, and the
 * LISTEN connection is opened again until it holds.
 */
export async function startEngineLoop(
  engine: BroadcastEngine,
  databaseUrl: string,
  log?: EngineLog,
  backoff = BACKOFF_MS,
) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let failures = 0;
  let resumeAt = 0;
  const tick = () => {
    if (stopped || Date.now() < resumeAt) return;
    if (running) {
      again = true;
      return;
    }
    running = engine
      .tick()
      .then(() => {
        failures = 0;
      })
      .catch((error: Error) => {
        failures += 1;
        const waitMs = backoffMs(failures, backoff);
        resumeAt = Date.now() + waitMs;
        log?.error({ err: error, retryInMs: waitMs }, 'broadcast tick failed');
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  // A LISTEN connection made again means the database is back: tick at once rather than after the back-off.
  const wake = () => {
    resumeAt = 0;
    tick();
  };
  const listener = listenForDueBroadcasts(databaseUrl, { onNotify: tick, onConnected: wake }, log, backoff);
  await listener.ready;
  const timer = setInterval(tick, Math.min(1_000, backoff.first));
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await listener.stop();
      await running;
      await engine.stop();
    },
  };
}

/**
 * Holds a LISTEN connection on the broadcasts channel and calls `onNotify` for each notification. When the
 * connection is lost it reconnects with back-off and calls `onConnected` (what was announced meanwhile is
 * picked up by that tick); the second-by-second tick keeps broadcasts moving in between. `ready` resolves once the first
 * connection listens (or fails: the worker still starts, and keeps trying).
 */
function listenForDueBroadcasts(
  databaseUrl: string,
  { onNotify, onConnected }: { onNotify: () => void; onConnected: () => void },
  log: EngineLog | undefined,
  backoff: Backoff,
) {
  let client: pg.Client | undefined;
  let stopped = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;

  const scheduleReconnect = () => {
    if (stopped || retryTimer) return;
    failures += 1;
    const waitMs = backoffMs(failures, backoff);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, waitMs);
  };

  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
    client = candidate;
    let lost = false;
    const onLost = (error: Error) => {
      if (lost || stopped) return;
      lost = true;
      log?.error({ err: error }, 'broadcast LISTEN connection lost; reconnecting');
      void candidate.end().catch(() => undefined);
      scheduleReconnect();
    };
    candidate.on('error', onLost);
    candidate.on('end', () => onLost(new Error('connection ended')));
    candidate.on('notification', onNotify);
    try {
      await candidate.connect();
      await candidate.query(`listen ${BROADCASTS_DUE_CHANNEL}`);
      if (stopped) {
        await candidate.end().catch(() => undefined);
        return;
      }
      if (failures > 0) log?.info({}, 'broadcast LISTEN connection restored');
      failures = 0;
      onConnected();
    } catch (error) {
      onLost(error as Error);
    }
  };

  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
