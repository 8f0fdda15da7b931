import type { Pool } from '../../../db/pool';
import type { SendOutcome } from './message-sender';

/**
 * The history's "Retrying: WhatsApp's servers are not answering (since 10:42)" (decision 055):
 * a broadcast none of whose sends in a batch got an answer from WhatsApp (5xx or unreachable) is marked
 * `unanswered_since` (kept from the first such batch); a batch with any answer clears it. Its rows wait in the
 * queue with a back-off meanwhile, so a batch that found the servers silent is the latest word until the next.
 */
export class UnansweredSends {
  private readonly answered = new Set<number>();
  private readonly unanswered = new Set<number>();

  saw(broadcastId: number, outcome: SendOutcome): void {
    if (outcome.kind === 'retry' && outcome.unanswered) this.unanswered.add(broadcastId);
    // A lost answer says nothing either way; every other outcome is WhatsApp answering.
    else if (outcome.kind !== 'unconfirmed') this.answered.add(broadcastId);
  }

  /** Writes what this batch saw: one statement, which touches a broadcast row only when its state changes. */
  async record(pool: Pool): Promise<void> {
    const silent = [...this.unanswered].filter((id) => !this.answered.has(id));
    const answered = [...this.answered];
    if (silent.length === 0 && answered.length === 0) return;
    // Broadcast rows locked in id order, as every writer of them does (decision 022).
    await pool.query(
      `with x as (select id from broadcasts
                   where (id = any($1::bigint[]) and unanswered_since is null)
                      or (id = any($2::bigint[]) and unanswered_since is not null)
                   order by id for no key update)
       update broadcasts b set unanswered_since = case when b.id = any($1::bigint[]) then now() end
         from x where b.id = x.id`,
      [silent, answered],
    );
  }
}

/** The history's reason for a sending broadcast whose sends WhatsApp is not answering, in the caller's zone. */
export const UNANSWERED_REASON_SQL = (zoneParam: string) =>
  `'Retrying: WhatsApp''s servers are not answering (since ' ||
     to_char(unanswered_since at time zone ${zoneParam}, 'HH24:MI') || ')'`;
