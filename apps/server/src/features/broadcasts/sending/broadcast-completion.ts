import type { Pool } from '../../../db/pool';
import { refreshBroadcastCounts } from '../broadcast-counts';
import { markUnknown } from '../message-rows';

/**
 * MESSAGE_OUTCOME_TIMEOUT_SECONDS's default (config.ts): how long an unconfirmed message waits for a status
 * before its outcome is 'unknown'. Meta retries a status webhook it could not deliver for up to 7 days, so
 * until then a status may still come; calling it unknown sooner would be a guess (decision 069).
 */
export const DEFAULT_OUTCOME_TIMEOUT_SECONDS = 7 * 86_400;

/**
 * A broadcast is completed once nothing is left to send: no message queued or sending, and its audience
 * written (decisions 022, 069). Neither accepted nor unconfirmed messages hold it: an unconfirmed one only
 * awaits its status (the report shows it pending), which may take Meta's whole retry window; it turns
 * unknown after the outcome timeout, and any status that lands, before or after, updates the counts.
 */
export async function completeFinishedBroadcasts(pool: Pool, outcomeTimeoutSeconds: number): Promise<void> {
  // Unconfirmed (its sender died mid-request) with no status webhook within the outcome timeout: its fate is
  // unknown. Never resent (a resend could be a duplicate); a status that comes later still settles it.
  const expired = await markUnknown(pool, outcomeTimeoutSeconds, unknownExplanation(outcomeTimeoutSeconds));
  await refreshBroadcastCounts(pool, [...new Set(expired.map((r) => r.broadcast_id))]);
  await pool.query(
    `with finished as materialized (
       select b.id from broadcasts b
        where b.status = 'sending'
          and not exists (select 1 from broadcast_audiences a
                           where a.waba_account_id = b.waba_account_id and a.broadcast_id = b.id)
          and not exists (select 1 from broadcast_messages m
                           where m.waba_account_id = b.waba_account_id and m.broadcast_id = b.id
                             and m.state in ('queued', 'sending'))
        order by b.id for no key update of b)
     update broadcasts b set status = 'completed', completed_at = now()
       from finished f where b.id = f.id and b.status = 'sending'`,
  );
}

/** The report's explanation of an unknown outcome, naming the time waited ("7 days", "1 hour", "2 seconds"). */
export function unknownExplanation(seconds: number): string {
  const [n, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds % 3_600 === 0
        ? [seconds / 3_600, 'hour']
        : seconds % 60 === 0
          ? [seconds / 60, 'minute']
          : [seconds, 'second'];
  return `No delivery status arrived from WhatsApp within ${n} ${unit}${n === 1 ? '' : 's'}; the message may or may not have been delivered.`;
}
