import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../../test-support/test-app';
import { signedInUser } from '../../auth/auth-test-helpers';
import { accountAndNumber } from '../broadcast-test-helpers';
import { takeOverInFlight } from '../message-rows';
import { RequestMarks } from './request-marks';

/**
 * A row's mark commits only with its request (decision 079): the mark's update waits in an open transaction,
 * the request is written when its answer comes, and the commit follows in the same call. A sender that dies
 * before that call (its connection closed, as a SIGKILL closes it) leaves the row unmarked, so the takeover gives
 * it back to the queue to be sent once later, instead of calling it 'unknown' though nothing was sent.
 */
let t: TestApp;
let accountId: number;
let phoneId: number;
let serial = 0;
const HOLDER = 'marks-test';
const MARKS_APP = 'request-marks-test';
// The marks' own pool, one connection, so a test can close the connection a mark is written on.
let markPool: pg.Pool;
const markConnections: pg.Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const owner = await signedInUser(t, 'request-marks@acme.test');
  ({ accountId, phoneId } = await accountAndNumber(t.db.pool, owner.business.waba_id));
  await t.db.pool.query(
    `insert into sender_leases (phone_number_id, holder, expires_at) values ($1, $2, now() + interval '1 hour')`,
    [phoneId, HOLDER],
  );
  markPool = new pg.Pool({ connectionString: t.db.url, max: 1, application_name: MARKS_APP });
  markPool.on('error', () => undefined);
  markPool.on('connect', (client) => {
    client.on('error', () => undefined);
    markConnections.push(client);
  });
});
afterEach(async () => {
  // Rows a test left claimed must not stay 'sending' for the app's own checks at close.
  await takeOverInFlight(t.db.pool, phoneId);
});
afterAll(async () => {
  await markPool.end();
  await t.close();
});

/** A sending broadcast of one claimed, unrequested row: its id. */
async function claimedRow(): Promise<number> {
  serial += 1;
  const { rows } = await t.db.pool.query<{ id: number }>(
    `with b as (
       insert into broadcasts (waba_account_id, phone_number_id, template_name, template_language, name, audience,
                               scheduled_at, status, total_recipients, started_at)
       values ($1, $2, 'hello', 'en_US', $3, '{"type":"all","percentage":100}', now(), 'sending', 1, now())
       returning id)
     insert into broadcast_messages (waba_account_id, broadcast_id, whatsapp_number, state, attempts)
     select $1, b.id, '+4478' || lpad($4::text, 8, '0'), 'sending', 1 from b
     returning id::int`,
    [accountId, phoneId, `marks-${serial}`, serial],
  );
  return rows[0]!.id;
}

const rowOf = async (id: number) =>
  (
    await t.db.pool.query<{ state: string; requested: boolean }>(
      'select state, requested_at is not null as requested from broadcast_messages where id = $1',
      [id],
    )
  ).rows[0];

const marks = () => new RequestMarks(markPool, { phoneId, accountId, holder: HOLDER });

/** Holds the row locked from another connection until `release` is called, so a mark of it waits. */
async function lockRow(id: number) {
  const client = await t.db.pool.connect();
  await client.query('begin');
  await client.query('select 1 from broadcast_messages where id = $1 for update', [id]);
  return async () => {
    await client.query('commit');
    client.release();
  };
}

/** Waits until a statement of the marks' connection waits for a lock. */
async function markWaitsForLock(): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 10_000;) {
    const { rows } = await t.db.pool.query(
      `select 1 from pg_stat_activity where wait_event_type = 'Lock' and application_name = $1`,
      [MARKS_APP],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the mark never waited for the lock');
}

/** Closes the socket of the marks' connection, as the kernel does for a process killed with SIGKILL. */
function killMarkConnection(): void {
  for (const client of markConnections.splice(0)) {
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

describe('marking a row requested', () => {
  it('commits the mark with its request, written before the commit', async () => {
    const id = await claimedRow();
    const request = vi.fn(async () => 'answered');
    const sent = await marks().mark(id, request);
    expect(sent).not.toBeNull();
    await expect(sent!.answer).resolves.toBe('answered');
    expect(request).toHaveBeenCalledTimes(1);
    // The commit follows the request's write; a writer of the row's outcome waits for it on the row's lock.
    await vi.waitFor(async () => expect(await rowOf(id)).toEqual({ state: 'sending', requested: true }));
  });

  it('leaves a row unmarked when its sender dies before the mark is answered, so the takeover queues it', async () => {
    const id = await claimedRow();
    const unlock = await lockRow(id);
    const request = vi.fn(async () => 'answered');
    const marking = marks().mark(id, request);
    await markWaitsForLock();
    // The sender dies while its mark waits; the mark's update then runs, but nothing commits it.
    killMarkConnection();
    await unlock();
    await expect(marking).resolves.toBeNull();
    await waitForNoMarkBackend();
    expect(request).not.toHaveBeenCalled();
    expect(await rowOf(id)).toEqual({ state: 'sending', requested: false });
    await takeOverInFlight(t.db.pool, phoneId);
    expect(await rowOf(id)).toEqual({ state: 'queued', requested: false });
  });

  it('does not request rows whose mark was answered too late, and rolls the mark back', async () => {
    const id = await claimedRow();
    const unlock = await lockRow(id);
    const request = vi.fn(async () => 'answered');
    const requestMarks = marks();
    const marking = requestMarks.mark(id, request);
    await markWaitsForLock();
    await new Promise((resolve) => setTimeout(resolve, 2_700));
    await unlock();
    await expect(marking).resolves.toBeNull();
    expect(requestMarks.failed).toBe(true);
    expect(String(requestMarks.error)).toMatch(/answered after \d+ ms/);
    expect(request).not.toHaveBeenCalled();
    await waitForNoMarkBackend();
    expect(await rowOf(id)).toEqual({ state: 'sending', requested: false });
  });

  it('marks again, once the database answers, a row whose request was written while its commit was lost', async () => {
    const id = await claimedRow();
    const requestMarks = marks();
    const sent = await requestMarks.mark(id, async () => {
      // The request is written; the connection is lost before the commit goes out.
      killMarkConnection();
      return 'answered';
    });
    expect(sent).not.toBeNull();
    await sent!.answer;
    await vi.waitFor(() => expect(requestMarks.failed).toBe(true));
    expect(await rowOf(id)).toEqual({ state: 'sending', requested: false });
    await requestMarks.markWhatWasSent(new Promise(() => undefined));
    expect(await rowOf(id)).toEqual({ state: 'sending', requested: true });
  });
});

/** Waits until no backend of the marks' connection is left (a closed connection's backend ends its transaction). */
async function waitForNoMarkBackend(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await t.db.pool.query(
        `select 1 from pg_stat_activity where application_name = $1 and state <> 'idle'`,
        [MARKS_APP],
      );
      expect(rows).toEqual([]);
    },
    { timeout: 10_000 },
  );
}
