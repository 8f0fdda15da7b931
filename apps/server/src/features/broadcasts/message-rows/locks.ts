import { LIMITED_RETRY_HOURS } from '@herald/contracts';

/** How long a message limited by WhatsApp (131049) waits before it may go again, as SQL (contracts' rule). */
export const LIMITED_RETRY_DELAY = `interval '${LIMITED_RETRY_HOURS} hours'`;

/**
 * Locks the message rows named in `x` (columns `waba_account_id`, `id`) in id order before an update touches
 * them: an update's own row order follows its plan, and two writers locking the same rows in different orders
 * deadlock (decision 022). Rows are found by their primary key, the account first (decision 056); the update
 * joins `locked l` with `onLocked()`.
 */
export const LOCKED = `locked as materialized (
  select m.waba_account_id, m.id from broadcast_messages m
   where (m.waba_account_id, m.id) in (select waba_account_id, id from x) order by m.id for update)`;

/**
 * The update's join to `locked` by the primary key, and the state the row must still be in. The state test is
 * written so that no partial index of that state (queued, sending, limited, unconfirmed) can serve it: rows pass
 * through those states quickly, so the planner's statistics see few of them and it would rather read the whole
 * partial index, dead entries included, than probe the primary key (measured in the broadcast bench: each of
 * the 2,000 marks of 100,000 messages read about 23,000 entries of the `sending` index; decision 056).
 */
export function onLocked(state?: string): string {
  const key = 'm.waba_account_id = l.waba_account_id and m.id = l.id';
  return state ? `${key} and ${inState(state)}` : key;
}

/** The state test no partial index can serve (onLocked says why). */
const inState = (state: string) => `(m.state = '${state}') is true`;

/**
 * The update's rows when they are one account's (a sender's batch): the locked ids, with the account given as
 * the parameter `accountParam`, so the primary key serves the update with both its columns whatever the
 * planner's statistics say of the table (a join to `locked` was planned as a sequential scan of every message
 * row while the broadcast bench's table was young: 2,000 of them per 100,000 messages sent; decision 056).
 */
export function inLocked(accountParam: string, state?: string): string {
  const rows = `m.waba_account_id = ${accountParam} and m.id = any(array(select id from locked))`;
  return state ? `${rows} and ${inState(state)}` : rows;
}
