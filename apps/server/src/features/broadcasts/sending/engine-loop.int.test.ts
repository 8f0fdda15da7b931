import { describe, expect, it } from 'vitest';
import type { BroadcastEngine } from './broadcast-engine';
import { startEngineLoop } from './engine-loop';

// The loop alone, with an engine whose ticks fail while "the database is away" and a LISTEN URL nobody
// answers (port 1): it must keep ticking, wait longer after each failure, and never throw.
const UNREACHABLE = 'postgres://herald@127.0.0.1:1/herald';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startEngineLoop', () => {
  it('survives failed ticks with a doubling, capped back-off, then ticks every interval again', async () => {
    const ticks: number[] = [];
    const errors: string[] = [];
    let failuresLeft = 4;
    const engine = {
      async tick() {
        ticks.push(Date.now());
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('connect ECONNREFUSED');
        }
      },
      async stop() {},
    } as unknown as BroadcastEngine;
    const loop = await startEngineLoop(
      engine,
      UNREACHABLE,
      { info: () => undefined, error: (_details, message) => errors.push(message) },
      { first: 100, max: 300 },
    );
    await sleep(1_500);
    await loop.stop();

    const gaps = ticks.slice(1, 5).map((at, i) => at - ticks[i]!);
    // After failures 1–4 it waits 100, 200, 300 (the cap), 300 ms (give or take the interval's 100 ms grain).
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(290);
    expect(gaps[3]).toBeGreaterThanOrEqual(290);
    expect(Math.max(...gaps)).toBeLessThan(700);
    // Healthy again: it ticks on every interval.
    expect(ticks.length).toBeGreaterThan(5);
    expect(errors.filter((message) => message === 'broadcast tick failed')).toHaveLength(4);
    // The LISTEN connection failed and was retried, reported each time, never thrown.
    expect(errors.filter((message) => message.includes('LISTEN')).length).toBeGreaterThan(1);
  });
});
