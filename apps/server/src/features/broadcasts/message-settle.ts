import { LIMITED_RETRY_HOURS } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { countSendResults } from '../metrics/index';
import { pauseForTemplateAnswers, type TemplatePausedResult } from './template-pause';

/** What one send came to, as the sender writes it back to the message row. */
export type SendResult =
  | { id: number; state: 'accepted' | 'held'; wamid: string; at: Date }
  | { id: number; state: 'queued'; delayMs: number; code: number; title: string }
  | {
      id: number;
      state: 'failed' | 'unconfirmed' | 'limited' | 'not_on_whatsapp';
      code: number | null;
      title: string;
    }
  /** Meta refused the template (132015/132016): not sent, back to the queue, and its broadcast pauses. */
  | TemplatePausedResult
  /** Never requested (the worker is stopping): back to the queue as it was, the attempt not counted. */
  | { id: number; state: 'released' };

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

/**
 * Writes a batch's outcomes in one statement per outcome kind, each its own transaction holding only message
 * rows, locked in id order (decision 022). The caller recounts the broadcasts afterwards.
 */
export async function settleMessages(pool: Pool, accountId: number, results: SendResult[]): Promise<void> {
  const accepted = results.filter(
    (r): r is Extract<SendResult, { state: 'accepted' | 'held' }> =>
      r.state === 'accepted' || r.state === 'held',
  );
  const retries = results.filter((r): r is Extract<SendResult, { state: 'queued' }> => r.state === 'queued');
  const final = results.filter(
    (r): r is Extract<SendResult, { state: 'failed' | 'unconfirmed' | 'limited' | 'not_on_whatsapp' }> =>
      r.state === 'failed' ||
      r.state === 'unconfirmed' ||
      r.state === 'limited' ||
      r.state === 'not_on_whatsapp',
  );
  const paused = results.filter((r): r is TemplatePausedResult => r.state === 'template_paused');
  // The broadcast pauses before its rows go back to the queue, so no sender claims them in between.
  if (paused.length > 0) await pauseForTemplateAnswers(pool, paused);
  const released = results
    .filter((r) => r.state === 'released' || r.state === 'template_paused')
    .map((r) => r.id);
  if (released.length > 0) {
    await pool.query(
      `with x as (select $2::bigint as waba_account_id, unnest($1::bigint[]) as id),
       ${LOCKED}
       update broadcast_messages m set state = 'queued', attempts = greatest(m.attempts - 1, 0)
        where ${inLocked('$2', 'sending')}`,
      [released, accountId],
    );
  }
  if (accepted.length > 0) {
    // A status webhook may already have moved the row past `sending`; only then keep its state.
    await pool.query(
      `with x as (select $5::bigint as waba_account_id, x.*
                   from unnest($1::bigint[], $2::text[], $3::timestamptz[], $4::text[]) as x(id, wamid, at, state)),
       ${LOCKED}
       update broadcast_messages m
          set state = case when m.state in ('sending', 'unconfirmed', 'unknown') then x.state else m.state end,
              wamid = x.wamid, accepted_at = coalesce(m.accepted_at, x.at),
              -- Accepted: an earlier attempt's error (a retried outage) no longer describes the message.
              error_code = case when m.state in ('sending', 'unconfirmed', 'unknown') then null else m.error_code end,
              error_title = case when m.state in ('sending', 'unconfirmed', 'unknown') then null else m.error_title end
         from x where ${inLocked('$5')} and m.id = x.id`,
      [
        accepted.map((r) => r.id),
        accepted.map((r) => r.wamid),
        accepted.map((r) => r.at),
        accepted.map((r) => r.state),
        accountId,
      ],
    );
  }
  if (retries.length > 0) {
    await pool.query(
      `with x as (select $5::bigint as waba_account_id, x.*
                   from unnest($1::bigint[], $2::int[], $3::int[], $4::text[]) as x(id, delay, code, title)),
       ${LOCKED}
       update broadcast_messages m set state = 'queued', next_attempt_at = now() + make_interval(secs => x.delay / 1000.0),
              error_code = x.code, error_title = x.title
         from x where ${inLocked('$5', 'sending')} and m.id = x.id`,
      [
        retries.map((r) => r.id),
        retries.map((r) => r.delayMs),
        retries.map((r) => r.code),
        retries.map((r) => r.title),
        accountId,
      ],
    );
  }
  if (final.length > 0) {
    await pool.query(
      `with x as (select $5::bigint as waba_account_id, x.*
                   from unnest($1::bigint[], $2::text[], $3::int[], $4::text[]) as x(id, state, code, title)),
       ${LOCKED}
       update broadcast_messages m set state = x.state, error_code = x.code, error_title = x.title,
              failed_at = case when x.state <> 'unconfirmed' then now() end,
              unconfirmed_at = case when x.state = 'unconfirmed' then now() end,
              -- A limited message may go again, no sooner than a day later (limited-retry.ts).
              next_attempt_at = case when x.state = 'limited' then now() + ${LIMITED_RETRY_DELAY} else m.next_attempt_at end
         from x where ${inLocked('$5', 'sending')} and m.id = x.id`,
      [
        final.map((r) => r.id),
        final.map((r) => r.state),
        final.map((r) => r.code),
        final.map((r) => r.title),
        accountId,
      ],
    );
  }
  countSendResults(results);
}
