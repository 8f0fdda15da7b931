import { z } from 'zod';

/** The most a spend cap may be: far above any broadcast, and within the column (numeric(12, 2)). */
export const SPEND_CAP_MAX = 1_000_000_000;

export const SPEND_CAP_MESSAGES = {
  amount: 'The spend cap must be an amount in USD, such as 12.50',
  positive: 'The spend cap must be more than 0',
  decimals: 'The spend cap must have at most 2 decimals (cents)',
  max: `The spend cap must be at most ${SPEND_CAP_MAX.toLocaleString('en-US')}`,
} as const;

/** At most two decimals, judged on the number as written (0.1 + 0.2 style float noise is not a third decimal). */
function hasCents(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

/**
 * An optional spend cap per broadcast (decision 052), in the account's currency (USD): the
 * engine never requests a message that could take the broadcast's billable cost past it, and pauses the
 * broadcast with the reason instead.
 */
export const SpendCapSchema = z
  .number({ message: SPEND_CAP_MESSAGES.amount })
  .positive(SPEND_CAP_MESSAGES.positive)
  .max(SPEND_CAP_MAX, SPEND_CAP_MESSAGES.max)
  .refine(hasCents, SPEND_CAP_MESSAGES.decimals);

/** Text typed in New broadcast's field → the amount, or why not ('' is no cap). */
export function parseSpendCap(
  text: string,
): { ok: true; value: number | null } | { ok: false; message: string } {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return { ok: false, message: SPEND_CAP_MESSAGES.amount };
  const parsed = SpendCapSchema.safeParse(Number(trimmed));
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? SPEND_CAP_MESSAGES.amount };
}

const usd = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(
    amount,
  );

const SPEND_CAP_REASON_START = 'Spend cap reached: ';

/** The history's reason for a broadcast the cap paused, e.g. "Spend cap reached: $12.34 of $12.50". */
export function spendCapReason(committed: number, cap: number): string {
  return `${SPEND_CAP_REASON_START}${usd(committed)} of ${usd(cap)}`;
}

/** Whether a broadcast's status_reason says the spend cap paused it (its Resume asks for a higher cap). */
export function isSpendCapPause(reason: string | null | undefined): boolean {
  return reason?.startsWith(SPEND_CAP_REASON_START) ?? false;
}

/** The 409 (field spend_cap) of a Resume whose cap would pause the broadcast again at once. */
export function spendCapTooLowMessage(needed: number): string {
  return `The spend cap was reached: raise it to at least ${usd(needed)} (what was spent plus the next message) or remove it to resume`;
}

/** POST /broadcast/{id}/resume/ may carry a new cap: a higher one, or null to remove it. */
export const BroadcastActionBodySchema = z
  .object({ spend_cap: SpendCapSchema.nullable().optional() })
  .meta({ id: 'BroadcastActionBody' });
export type BroadcastActionBody = z.infer<typeof BroadcastActionBodySchema>;
