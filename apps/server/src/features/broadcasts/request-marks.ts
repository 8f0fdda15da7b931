import type { Pool } from '../../db/pool';
import { inLocked, LOCKED, onLocked } from './message-settle';

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

// The mark's time is when its rows were locked and written (clock_timestamp), not when its statement began
// (now()): a mark that waited for a lock is still written just before its requests.
async function markRequested(
  pool: Pool,
  { phoneId, accountId, holder }: { phoneId: number; accountId: number; holder: string },
  ids: number[],
): Promise<Set<number>> {
  const { rows } = await pool.query<{ id: number }>(
    `with lease as (select 1 from sender_leases where phone_number_id = $2 and holder = $3 for share),
     x as (select $4::bigint as waba_account_id, unnest($1::bigint[]) as id where exists (select 1 from lease)),
     ${LOCKED}
     update broadcast_messages m set requested_at = clock_timestamp() where ${inLocked('$4', 'sending')}
     returning m.id::int`,
    [ids, phoneId, holder, accountId],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * A lease taken over from a sender that died mid-send: its `sending` rows marked requested may have reached
 * Meta, so they turn unconfirmed (a status webhook or the outcome timeout settles them, never a resend); the
 * rest were claimed but never requested and go back to the queue, their attempt not counted.
 */
export async function takeOverInFlight(pool: Pool, phoneId: number): Promise<void> {
  // Rows locked in id order, as every writer of message rows does (decision 022).
  await pool.query(
    `with x as (select m.waba_account_id, m.id from broadcast_messages m
                  join broadcasts b on b.waba_account_id = m.waba_account_id and b.id = m.broadcast_id
                 where b.phone_number_id = $1 and m.state = 'sending'),
     ${LOCKED}
     update broadcast_messages m
        set state = case when m.requested_at is null then 'queued' else 'unconfirmed' end,
            unconfirmed_at = case when m.requested_at is null then m.unconfirmed_at else now() end,
            attempts = case when m.requested_at is null then greatest(m.attempts - 1, 0) else m.attempts end
       from locked l where ${onLocked('sending')}`,
    [phoneId],
  );
}

/**
 * Gives a sender's claimed rows that it never requested back to the queue, their attempt not counted, while it
 * still holds the number's lease (the lease row FOR SHARE, as a mark takes it). A sender whose lease was taken
 * over (its liveness lock lost with its connection, or the lease lapsed) must not: the takeover already gave
 * those rows back, and its successor may have claimed and requested one since, which a late give-back would
 * queue for a second send.
 */
export async function giveBack(
  pool: Pool,
  { phoneId, accountId, holder }: { phoneId: number; accountId: number; holder: string },
  ids: number[],
): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(
    `with lease as (select 1 from sender_leases where phone_number_id = $2 and holder = $3 for share),
     x as (select $4::bigint as waba_account_id, unnest($1::bigint[]) as id where exists (select 1 from lease)),
     ${LOCKED}
     update broadcast_messages m set state = 'queued', attempts = greatest(m.attempts - 1, 0)
      where ${inLocked('$4', 'sending')}`,
    [ids, phoneId, holder, accountId],
  );
}
