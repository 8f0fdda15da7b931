import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pool } from '../../db/pool';
import { WebhookProcessor } from './webhook-processor';

/** A pool whose every connection attempt is refused (Postgres restarting), counting the attempts. */
function refusingPool() {
  const pool = {
    attempts: 0,
    connect: () => {
      pool.attempts += 1;
      return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    },
  };
  return pool;
}

/** Lets the drain the timers started run to its end (it awaits the refused connection, then schedules a retry). */
const settle = async (processor: WebhookProcessor) => {
  await vi.advanceTimersByTimeAsync(0);
  await processor.idle();
};

describe('webhook processor retries', () => {
  afterEach(() => vi.useRealTimers());

  it('waits 1 s, then 2 s, then 4 s between failed retries, however many webhooks arrive meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // drains start on setImmediate
    const pool = refusingPool();
    const processor = new WebhookProcessor(pool as unknown as Pool, { error: () => undefined });

    processor.schedule();
    await settle(processor);
    expect(pool.attempts).toBe(1);

    // Webhooks arriving while the retry waits drain at once (and fail): they do not push the retry back.
    for (let i = 0; i < 5; i += 1) {
      processor.schedule();
      await settle(processor);
    }
    expect(pool.attempts).toBe(6);

    await vi.advanceTimersByTimeAsync(999);
    expect(pool.attempts).toBe(6);
    await vi.advanceTimersByTimeAsync(1);
    await settle(processor);
    expect(pool.attempts).toBe(7); // the first retry, after 1 s

    await vi.advanceTimersByTimeAsync(1_999);
    expect(pool.attempts).toBe(7);
    await vi.advanceTimersByTimeAsync(1);
    await settle(processor);
    expect(pool.attempts).toBe(8); // the second, 2 s later

    await vi.advanceTimersByTimeAsync(4_000);
    await settle(processor);
    expect(pool.attempts).toBe(9); // the third, 4 s later

    await processor.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pool.attempts).toBe(9); // stopped: no retry
  });
});
