import type { Pool } from '../../db/pool';
import { inLocked, LOCKED, onLocked } from './message-settle';

/**
 * How many rows one mark covers: 50 ms of the number's rate (50 at 1,000 mps, 4 at 80), so a sender marks
 * about 20 groups a second whatever its rate, and a killed sender leaves at most two groups marked but not
 * requested (the group sending and the next one, marked ahead so the requests never wait for it).
 */
export function markGroupSize(mps: number): number {
  return Math.max(1, Math.ceil(mps / 20));
}

/**
 * Marks a claimed batch's rows requested, group by group, just before their requests go out (decision 055).
 * A row's mark is written before its request; the next group's mark is written while this group sends, so
 * in the steady state no request waits for the database. A row is marked only while it is still `sending` and
 * the sender still holds the number's lease: the mark takes the lease row FOR SHARE, so a worker taking the
 * lease over waits for it (and then sees the marks) or comes first (and nothing more is marked). A row not
 * marked is not this sender's any more and must not be requested: a takeover may have given it back to the
 * queue. Message rows are locked in id order like every writer of them (decision 022).
 */
export class RequestMarks {
  private readonly marks = new Map<number, Promise<Set<number>>>();

  constructor(
    private readonly pool: Pool,
    private readonly sender: { phoneId: number; accountId: number; holder: string },
    private readonly ids: number[],
    private readonly groupSize: number,
  ) {}

  /** Whether the row at `index` of the batch is marked requested (and so may be requested); marks ahead. */
  async before(index: number): Promise<boolean> {
    const group = Math.floor(index / this.groupSize);
    const mark = this.mark(group);
    // The next group is marked only once this one is: after a failed mark the sender stops requesting, and a
    // group marked behind it would read as "may have reached Meta" though never requested.
    if (index % this.groupSize === 0) void mark.then(() => this.mark(group + 1)).catch(() => undefined);
    return (await mark).has(this.ids[index]!);
  }

  private mark(group: number): Promise<Set<number>> {
    const start = group * this.groupSize;
    if (start >= this.ids.length) return Promise.resolve(new Set());
    let mark = this.marks.get(group);
    if (!mark) {
      mark = markRequested(this.pool, this.sender, this.ids.slice(start, start + this.groupSize));
      this.marks.set(group, mark);
    }
    return mark;
  }
}

async function markRequested(
  pool: Pool,
  { phoneId, accountId, holder }: { phoneId: number; accountId: number; holder: string },
  ids: number[],
): Promise<Set<number>> {
  const { rows } = await pool.query<{ id: number }>(
    `with lease as (select 1 from sender_leases where phone_number_id = $2 and holder = $3 for share),
     x as (select $4::bigint as waba_account_id, unnest($1::bigint[]) as id where exists (select 1 from lease)),
     ${LOCKED}
     update broadcast_messages m set requested_at = now() where ${inLocked('$4', 'sending')}
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
