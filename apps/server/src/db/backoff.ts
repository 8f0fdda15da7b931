/** A doubling wait: `first` after the first failure, twice that after the next, never more than `max`. */
export interface Backoff {
  first: number;
  max: number;
}

/**
 * The wait before trying again after `failures` failures in a row (1 or more): what every retry of a lost
 * database (engine tick, LISTEN connection, webhook drain, a batch's results) waits, each with its own bounds.
 */
export function backoffMs(failures: number, { first, max }: Backoff): number {
  return Math.min(max, first * 2 ** Math.max(0, failures - 1));
}
