import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminQuery, withDatabase } from '../../../../test-support/database-server';
import { FINAL_STATES, runScaleScenario, type ScaleFigures } from '../../../../test-support/scale-scenario';

// 2 `herald serve` and 3 `herald work` processes on one Postgres, the sandbox Cloud API in a
// process of its own posting status webhooks through a round-robin proxy to both APIs; two numbers each send
// 10,000 recipients at a 1,000 mps cap. Nothing is sent twice, nothing is refused for throughput, every
// recipient ends final, and the two numbers go to two different workers by the engines' fair share of numbers
// (worker-share.ts, decision 055): nothing is held or timed to make it so.
const RECIPIENTS = 10_000;
const MPS = 1_000;

const adminUrl = inject('databaseAdminUrl');
// Named after the run's template so the suite's teardown drops it even if this file's afterAll does not run.
const database = `${inject('databaseTemplate')}_scale_${randomBytes(3).toString('hex')}`;
let figures: ScaleFigures;

beforeAll(async () => {
  // An empty database: `herald migrate` makes the schema, as in production.
  await adminQuery(adminUrl, `create database ${database}`);
  figures = await runScaleScenario({
    databaseUrl: withDatabase(adminUrl, database),
    recipientsPerNumber: RECIPIENTS,
    mps: MPS,
    apis: 2,
    workers: 3,
    // Room for the statuses to land on a loaded machine: the figures, not this wait, are what the tests judge.
    timeoutMs: 120_000,
  });
  console.log(`scale-out: ${JSON.stringify(figures)}`);
}, 160_000);

afterAll(() => adminQuery(adminUrl, `drop database if exists ${database} with (force)`));

describe('2 API and 3 worker processes, two numbers at their caps', () => {
  it('sends every recipient once per number: no duplicate in the sandbox’s log, no 130429, no retry', () => {
    expect(figures.numbers).toHaveLength(2);
    for (const number of figures.numbers) {
      expect(number.status).toBe('completed');
      expect(number.accepted_in_sandbox).toBe(RECIPIENTS);
      expect(number.unique_recipients).toBe(RECIPIENTS);
      expect(number.duplicate_recipients).toEqual([]);
      expect(number.rows_attempted_twice).toBe(0);
    }
    // The sandbox logs only what it accepted; the 130429 answers are counted where they arrive, in each worker.
    expect(figures.workers.map((w) => w.answers_130429)).toEqual([0, 0, 0]);
  });

  it('leaves every recipient in a final state, the statuses applied by both API processes', () => {
    for (const number of figures.numbers) {
      const total = Object.values(number.states).reduce((sum, n) => sum + n, 0);
      expect(total).toBe(RECIPIENTS);
      const notFinal = Object.entries(number.states).filter(([state]) => !FINAL_STATES.includes(state));
      expect(notFinal).toEqual([]);
      // The one contact whose digits end 0000 (+16280010000) is not on WhatsApp in the sandbox; the rest delivered.
      expect(number.states).toEqual({ delivered: RECIPIENTS - 1, not_on_whatsapp: 1 });
    }
    expect(figures.webhooks_per_api.every((n) => n > 0)).toBe(true);
  });

  it('shares the sending between worker processes, each number sent from one place', () => {
    const senders = figures.workers.filter((w) => w.accepted > 0);
    expect(senders.length).toBe(2);
    expect(figures.workers.reduce((sum, w) => sum + w.accepted, 0)).toBe(2 * RECIPIENTS);
    // One lease holder per number the whole time, and two different workers: the one sending number 1 left
    // number 2 to another, being at its share.
    const holders = Object.values(figures.lease_holders);
    expect(holders).toHaveLength(2);
    for (const each of holders) expect(each).toHaveLength(1);
    expect(new Set(holders.flat()).size).toBe(2);
    const pids = senders.map((w) => String(w.pid)).sort();
    expect(holders.map((each) => each[0]!.split(':')[1]).sort()).toEqual(pids);
  });
});
