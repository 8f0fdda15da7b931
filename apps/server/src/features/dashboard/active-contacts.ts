import type { Pool } from '../../db/pool';

/** Past ranges' counts, by account and range: they no longer change (decision 032). */
const closed = new Map<string, { value: number; at: number }>();
const CLOSED_ENTRIES = 2_000;
/** A late webhook (a reply with an old timestamp) may still add to a past range: recount after this long. */
const CLOSED_TTL_MS = 60 * 60 * 1000;
/** Counts of past ranges under way, so concurrent requests share one. */
const inFlight = new Map<string, Promise<number>>();
const PAST_RANGE_WAIT_MS = 250;
let pastRangeWaitMs = PAST_RANGE_WAIT_MS;

/**
 * Active Contacts in [start, end): numbers that received a broadcast message or contacts that wrote in, each
 * once. A distinct count is not a sum of days, so it is never read from dashboard_hours:
 * - a range that has not ended counts the numbers whose latest activity is inside it (one index range of
 *   dashboard_last_active: exact, as no activity lies after now);
 * - a past range counts distinct numbers of dashboard_active's hours, once, then keeps the count a while. At 10
 *   million messages that count takes seconds: a request waits PAST_RANGE_WAIT_MS for it, then answers null
 *   (the card shows no figure) while the count finishes for the next request.
 */
export async function activeContacts(
  pool: Pool,
  accountId: number,
  start: Date,
  end: Date,
): Promise<number | null> {
  if (end.getTime() > Date.now()) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from dashboard_last_active where waba_account_id = $1 and last_at >= $2 and last_at < $3`,
      [accountId, start, end],
    );
    return rows[0]!.n;
  }
  const key = `${accountId}|${start.toISOString()}|${end.toISOString()}`;
  const kept = closed.get(key);
  if (kept && Date.now() - kept.at < CLOSED_TTL_MS) return kept.value;
  // A count another request started is not waited for: requests during a long count stay fast.
  if (inFlight.has(key)) return null;
  const counting = pool
    .query<{ n: number }>(
      `select count(distinct whatsapp_number)::int as n from dashboard_active
          where waba_account_id = $1 and hour >= $2 and hour < $3`,
      [accountId, start, end],
    )
    .then(({ rows }) => {
      const value = rows[0]!.n;
      if (closed.size >= CLOSED_ENTRIES) closed.delete(closed.keys().next().value!);
      closed.set(key, { value, at: Date.now() });
      return value;
    })
    .finally(() => inFlight.delete(key));
  // Nobody may be waiting when it fails (the request answered without it): a failure only means no count.
  counting.catch(() => undefined);
  inFlight.set(key, counting);
  return waitBriefly(counting);
}

/** The count if it comes within PAST_RANGE_WAIT_MS, else null (it goes on for the next request). */
async function waitBriefly(counting: Promise<number>): Promise<number | null> {
  // Millions of activity rows take seconds to count: the request does not wait for them (decision 032).
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), pastRangeWaitMs);
  });
  try {
    return await Promise.race([counting, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Tests: how long a request waits for a past range's count. Tests that assert a past range's figure wait
 * longer than the product does, so a loaded CI machine (a small count taking over 250 ms) cannot make them
 * see the "no figure yet" answer; the product keeps its 250 ms.
 */
export function waitForPastRanges(ms: number = PAST_RANGE_WAIT_MS): void {
  pastRangeWaitMs = ms;
}

/** Tests: forget the past ranges' counts. */
export function forgetActiveContacts(): void {
  closed.clear();
}
