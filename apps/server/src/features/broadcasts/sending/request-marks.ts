import type { Pool } from '../../../db/pool';
import { markRequested } from '../message-rows';

type MarkOutcome = 'marked' | 'not-marked' | 'failed';

/**
 * Marks rows requested one by one, each just before its own request leaves (decision 070): the sender asks for
 * a row's mark once the row has its token and a socket's turn, and requests it the moment the mark is written.
 * Marks asked for while one is being written are written together next, so a mark costs one round trip of
 * latency and about one statement per round trip, whatever the rate; a killed sender leaves marked only
 * requests on their way out. A row is marked only while it is still `sending` and the sender still holds the
 * number's lease: the mark takes the lease row FOR SHARE, so a worker taking the lease over waits for it (and
 * then sees the marks) or comes first (and nothing more is marked). A row not marked is not this sender's any
 * more and must not be requested: a takeover may have given it back to the queue. Message rows are locked in
 * id order like every writer of them (decision 022).
 */
export class RequestMarks {
  private pending: Array<{ id: number; settle: (outcome: MarkOutcome) => void }> = [];
  private writing = false;
  private failure: unknown = null;

  constructor(
    private readonly pool: Pool,
    private readonly sender: { phoneId: number; accountId: number; holder: string },
  ) {}

  /** Whether a mark failed: the sender then stops requesting, and leaves its batch to a takeover. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Resolves once the row's mark is written ('marked': request it now), refused or failed. */
  mark(id: number): Promise<MarkOutcome> {
    if (this.failed) return Promise.resolve('failed');
    return new Promise((settle) => {
      this.pending.push({ id, settle });
      if (!this.writing) void this.write();
    });
  }

  /** The error of the failed mark, for the sender's log. */
  get error(): unknown {
    return this.failure;
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const group = this.pending;
      this.pending = [];
      try {
        const marked = await markRequested(
          this.pool,
          this.sender,
          group.map((row) => row.id),
        );
        for (const row of group) row.settle(marked.has(row.id) ? 'marked' : 'not-marked');
      } catch (error) {
        this.failure = error;
        for (const row of [...group, ...this.pending]) row.settle('failed');
        this.pending = [];
      }
    }
    this.writing = false;
  }
}
