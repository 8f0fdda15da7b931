import type { PoolClient, QueryResult } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffMs } from '../../../db/backoff';
import { isDatabaseUnavailable } from '../../../db/database-unavailable';
import type { Pool } from '../../../db/pool';
import { markRequested, markRequestedStatement } from '../message-rows';

/**
 * How long Postgres keeps a mark's transaction waiting for its commit before it ends the session: a sender
 * frozen between its mark and its requests (a stopped process) must not hold the number's lease row, which the
 * mark locks FOR SHARE, for ever.
 */
const MARK_IDLE_LIMIT_MS = 5_000;
/**
 * A mark answered later than this is not used: its requests are not sent and its transaction is dropped. Half
 * the idle limit, so a mark that is used is one whose transaction Postgres surely still holds (its idle time
 * began after the question was asked), and the commit written right after it cannot find the session ended.
 */
const MARK_ANSWER_LIMIT_MS = MARK_IDLE_LIMIT_MS / 2;
const REMARK_BACKOFF = { first: 100, max: 1_000 };

interface PendingMark {
  id: number;
  request: () => Promise<unknown>;
  settle: (sent: { answer: Promise<unknown> } | null) => void;
}

/**
 * Marks rows requested, each in the transaction that its own request is written in (decision 079): the sender
 * asks for a row's mark once the row has its token and a connected socket holding its request unwritten; the
 * mark's update runs in an open transaction, and when its answer comes the marked rows' requests are written and
 * the commit follows in the same call, nothing between them. A sender killed before that call leaves its marks
 * uncommitted: Postgres rolls them back when the connection drops, and the takeover gives those rows back to
 * the queue, to be sent once later. Only a kill in the microseconds between a request's write and the commit's
 * can resend, and only a commit lost with the database can leave a request written unmarked: those rows are
 * marked again, outside a transaction, as soon as the database answers (markWhatWasSent).
 *
 * Marks asked for while one is written are written together next, so a mark costs two round trips of latency (the
 * transaction's opening and the update in one query, then the commit) and about one transaction per two round
 * trips, whatever the rate. A row is marked only while it is still
 * `sending` and the sender still holds the number's lease: the mark takes the lease row FOR SHARE, so a worker
 * taking the lease over waits for the commit (and then sees the marks) or comes first (and nothing more is
 * marked). A row not marked is not this sender's any more and must not be requested: a takeover may have given
 * it back to the queue. Message rows are locked in id order like every writer of them (decision 022).
 */
export class RequestMarks {
  private pending: PendingMark[] = [];
  private writing = false;
  private failure: unknown = null;
  /** Rows whose requests were written while their mark's commit failed: marked again by markWhatWasSent. */
  private sentUnmarked: number[] = [];

  constructor(
    private readonly pool: Pool,
    private readonly sender: { phoneId: number; accountId: number; holder: string },
  ) {}

  /** Whether a mark failed: the sender then stops requesting, and leaves its batch to a takeover. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** The error of the failed mark, for the sender's log. */
  get error(): unknown {
    return this.failure;
  }

  /**
   * Marks the row and, once its mark is written and before it commits, calls `request` (which must write the
   * request at once). Resolves to what `request` answered (wrapped: its answer may take long), or null when the
   * row was not marked (the lease or the row is no longer this sender's, or the mark failed): then nothing was
   * requested.
   */
  mark<T>(id: number, request: () => Promise<T>): Promise<{ answer: Promise<T> } | null> {
    if (this.failed) return Promise.resolve(null);
    return new Promise((settle) => {
      this.pending.push({ id, request, settle: settle as PendingMark['settle'] });
      if (!this.writing) void this.write();
    });
  }

  /**
   * Marks the rows whose requests were written while their mark's commit failed (the database went away in
   * that moment), trying again while the database is unreachable until `giveUp` settles. Their results are
   * written by the sender too, but only while its lease surely holds; the mark is what keeps a takeover after a
   * long outage from sending them a second time. Still only while this sender holds the lease: no other sender
   * can have taken them until then.
   */
  async markWhatWasSent(giveUp: Promise<void>): Promise<void> {
    if (this.sentUnmarked.length === 0) return;
    let stop = false;
    void giveUp.then(() => (stop = true));
    for (let failures = 1; ; failures += 1) {
      try {
        await markRequested(this.pool, this.sender, this.sentUnmarked);
        this.sentUnmarked = [];
        return;
      } catch (error) {
        if (stop || !isDatabaseUnavailable(error)) throw error;
        await Promise.race([sleep(backoffMs(failures, REMARK_BACKOFF)), giveUp]);
      }
    }
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const group = this.pending;
      this.pending = [];
      let client: PoolClient | null = null;
      let settled = false;
      try {
        client = await this.pool.connect();
        const asked = performance.now();
        // One round trip opens the transaction and writes the mark (a query of several statements).
        const opened = client;
        const answers = (await opened.query(
          `begin; set local idle_in_transaction_session_timeout = ${MARK_IDLE_LIMIT_MS};
           ${markRequestedStatement(
             this.sender,
             group.map((row) => row.id),
             (text) => opened.escapeLiteral(text),
           )}`,
        )) as unknown as Array<QueryResult<{ id: number }>>;
        const marked = new Set(answers[2]!.rows.map((row) => row.id));
        const waited = performance.now() - asked;
        if (waited > MARK_ANSWER_LIMIT_MS) {
          throw new Error(`a mark was answered after ${Math.round(waited)} ms: its requests were not sent`);
        }
        // The requests, then the commit: one synchronous stretch, so a process that dies leaves either
        // neither (rolled back with its connection) or both.
        const sent = group.map((row) => (marked.has(row.id) ? { answer: requestNow(row) } : null));
        const committed = client.query('commit');
        group.forEach((row, i) => row.settle(sent[i]!));
        settled = true;
        try {
          await committed;
        } catch (error) {
          this.sentUnmarked.push(...group.filter((row) => marked.has(row.id)).map((row) => row.id));
          throw error;
        }
        client.release();
        client = null;
      } catch (error) {
        this.failure = error;
        // A connection that failed or holds an unfinished transaction is closed, which rolls the mark back.
        client?.release(true);
        for (const row of [...(settled ? [] : group), ...this.pending]) row.settle(null);
        this.pending = [];
      }
    }
    this.writing = false;
  }
}

/** A request's write, as a promise of its answer even when writing it threw. */
function requestNow(row: PendingMark): Promise<unknown> {
  try {
    return row.request();
  } catch (error) {
    return Promise.reject(error);
  }
}
